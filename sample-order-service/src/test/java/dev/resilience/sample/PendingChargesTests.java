package dev.resilience.sample;

import java.time.Duration;

import dev.resilience.sample.order.OrderState;
import dev.resilience.sample.order.OrderView;
import dev.resilience.sample.payment.PaymentResponse;
import dev.resilience.sample.simulator.ChargeRecord;
import tools.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The primary gateway answers a new charge 200 with the status {@code pending} and
 * settles it later: the payment asks again under the same gateway key
 * ({@code retryOnResult}), each pending answer counts against the {@code payment-gateway}
 * breaker ({@code failOnResult}), and a charge still pending after the last attempt
 * leaves the order in doubt without a request to the backup gateway, whose charge would
 * be a second one once the primary's settles.
 */
@SampleApplicationTests
class PendingChargesTests {

    private static final Duration BOUND = Duration.ofSeconds(20);

    /** Longer than the three attempts of a payment, which take well under a second. */
    private static final long SETTLES_AFTER_THE_ATTEMPTS = 3000;

    @LocalServerPort
    private int port;

    private SampleClient client;

    @BeforeEach
    void healthyDownstreams() {
        this.client = new SampleClient(this.port);
        this.client.reset();
    }

    @AfterEach
    void restore() {
        this.client.reset();
    }

    @Test
    void aChargePendingOnTheFirstAnswerAndSettledByTheRetryPaysTheOrderWithItsOneCharge() {
        this.client.pendingCharges("primary", 0, 1.0, 0);
        OrderView order = this.client.createOrder("tok_visa");
        long primaryRequests = this.client.requests("primary");
        long backupRequests = this.client.requests("backup");

        ResponseEntity<PaymentResponse> response = this.client.pay(order.id(), "settled-" + order.id());

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        PaymentResponse payment = response.getBody();
        assertThat(payment.state()).isEqualTo(OrderState.PAID);
        assertThat(payment.gateway()).isEqualTo("primary");
        assertThat(payment.outcome()).isEqualTo("SUCCESS");
        assertThat(payment.attempts()).isEqualTo(2);
        assertThat(payment.fallback()).isNull();
        assertThat(this.client.order(order.id()).state()).isEqualTo(OrderState.PAID);
        assertThat(this.client.charges(order.id())).singleElement().satisfies((charge) -> {
            assertThat(charge.gateway()).isEqualTo("primary");
            assertThat(charge.chargeId()).isEqualTo(payment.chargeId());
            assertThat(charge.status()).isEqualTo(ChargeRecord.SUCCEEDED);
        });
        assertThat(this.client.requests("primary")).isEqualTo(primaryRequests + 2);
        assertThat(this.client.requests("backup")).isEqualTo(backupRequests);
        JsonNode breaker = this.client.get("/actuator/circuitbreakers/payment-gateway");
        assertThat(breaker.get("bufferedCalls").asInt()).isEqualTo(2);
        assertThat(breaker.get("failedCalls").asInt()).isEqualTo(1);
    }

    @Test
    void aChargePendingThroughEveryAttemptLeavesTheOrderInDoubtWithoutABackupRequestAndTheNextPaymentSettlesIt() {
        this.client.pendingCharges("primary", 0, 1.0, SETTLES_AFTER_THE_ATTEMPTS);
        OrderView order = this.client.createOrder("tok_visa");
        String key = "pending-" + order.id();
        long primaryRequests = this.client.requests("primary");
        long backupRequests = this.client.requests("backup");

        ResponseEntity<PaymentResponse> response = this.client.pay(order.id(), key);

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_GATEWAY);
        PaymentResponse inDoubt = response.getBody();
        assertThat(inDoubt.state()).isEqualTo(OrderState.PAYMENT_IN_DOUBT);
        assertThat(inDoubt.outcome()).isEqualTo("ERROR");
        assertThat(inDoubt.attempts()).isEqualTo(3);
        assertThat(inDoubt.fallback()).isNull();
        assertThat(inDoubt.deadLetterId()).isNotNull();
        assertThat(this.client.get("/actuator/deadletters/" + inDoubt.deadLetterId()).get("errorClass").asString())
            .isEqualTo("dev.resilience.core.RejectedResultException");
        assertThat(this.client.order(order.id()).state()).isEqualTo(OrderState.PAYMENT_IN_DOUBT);
        assertThat(this.client.requests("primary")).isEqualTo(primaryRequests + 3);
        assertThat(this.client.requests("backup")).as("backup requests").isEqualTo(backupRequests);
        ChargeRecord pending = this.client.charges(order.id()).get(0);
        assertThat(this.client.charges(order.id())).singleElement().satisfies((charge) -> {
            assertThat(charge.gateway()).isEqualTo("primary");
            assertThat(charge.status()).isEqualTo(ChargeRecord.PENDING);
        });

        this.client.reset();
        await().atMost(BOUND)
            .until(() -> this.client.charges(order.id()).get(0).status().equals(ChargeRecord.SUCCEEDED));
        PaymentResponse settled = this.client.pay(order.id(), key).getBody();

        assertThat(settled.state()).isEqualTo(OrderState.PAID);
        assertThat(settled.gateway()).isEqualTo("primary");
        assertThat(settled.chargeId()).isEqualTo(pending.chargeId());
        assertThat(settled.attempts()).isEqualTo(1);
        assertThat(this.client.order(order.id()).state()).isEqualTo(OrderState.PAID);
        assertThat(this.client.charges(order.id())).singleElement()
            .extracting(ChargeRecord::chargeId)
            .isEqualTo(settled.chargeId());
    }

    @Test
    void pendingAnswersCountAsFailuresOfThePrimaryAndOpenTheBreaker() {
        for (int i = 0; i < 2; i++) {
            assertThat(pay().attempts()).isEqualTo(1);
        }
        this.client.pendingCharges("primary", 0, 1.0, SETTLES_AFTER_THE_ATTEMPTS);

        PaymentResponse inDoubt = pay();

        assertThat(inDoubt.state()).isEqualTo(OrderState.PAYMENT_IN_DOUBT);
        assertThat(inDoubt.attempts()).isEqualTo(3);
        JsonNode breaker = this.client.get("/actuator/circuitbreakers/payment-gateway");
        assertThat(breaker.get("state").asString()).isEqualTo("OPEN");
        assertThat(breaker.get("bufferedCalls").asInt()).isEqualTo(5);
        assertThat(breaker.get("failedCalls").asInt()).isEqualTo(3);
        assertThat(breaker.get("failureRate").asDouble()).isEqualTo(60.0);

        long primaryRequests = this.client.requests("primary");
        PaymentResponse byBackup = pay();

        assertThat(byBackup.state()).isEqualTo(OrderState.PAID);
        assertThat(byBackup.gateway()).isEqualTo("backup");
        assertThat(byBackup.attempts()).isZero();
        assertThat(byBackup.fallback()).isEqualTo("payWithBackupGateway");
        assertThat(this.client.requests("primary")).isEqualTo(primaryRequests);
        assertThat(this.client.charges(byBackup.orderId())).hasSize(1);
    }

    private PaymentResponse pay() {
        OrderView order = this.client.createOrder("tok_visa");
        return this.client.pay(order.id(), "pending-breaker-" + order.id()).getBody();
    }

}
