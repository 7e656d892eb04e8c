package dev.resilience.sample;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.resilience.sample.order.OrderState;
import dev.resilience.sample.order.OrderView;
import dev.resilience.sample.payment.PaymentResponse;
import dev.resilience.sample.simulator.ChargeRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A gateway still processing a charge when the payment moves on: the simulated primary
 * takes longer to process a charge than the payment's 1s attempt timeout, so the first
 * attempt's request is left unanswered while the charge is still to be recorded. A 409 to
 * the retry ("still processing") is no decline, and a lookup that finds no charge yet is
 * no proof that none will be made: the order is charged once, and never left declined.
 */
@SampleApplicationTests
class ChargesInProgressTests {

    private static final Duration BOUND = Duration.ofSeconds(20);

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
    void aRetryAnswered409WhileTheFirstRequestIsProcessedEndsPaidWithItsOneCharge() {
        // 2.5s of processing: the first attempt times out after 1s, the retries with the
        // same
        // gateway key meet it still processing (409), the lookup before the backup waits
        // for it
        this.client.processing("primary", 2500);
        OrderView order = this.client.createOrder("tok_visa");
        long refusedBefore = this.client.report().refusedInProgress().get("primary");

        ResponseEntity<PaymentResponse> response = this.client.pay(order.id(), "processing-" + order.id());

        awaitPrimaryFinished(order.id());
        assertThat(this.client.report().refusedInProgress().get("primary")).as("409 answers of the primary")
            .isGreaterThan(refusedBefore);
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(response.getBody().state()).isEqualTo(OrderState.PAID);
        assertThat(this.client.order(order.id()).state()).isEqualTo(OrderState.PAID);
        assertThat(this.client.charges(order.id())).singleElement().satisfies((charge) -> {
            assertThat(charge.gateway()).isEqualTo("primary");
            assertThat(charge.chargeId()).isEqualTo(response.getBody().chargeId());
        });
        System.out.printf("FIGURES 409: order %d %s, primary 409 answers +%d, charges of the order %d%n", order.id(),
                response.getBody().state(), this.client.report().refusedInProgress().get("primary") - refusedBefore,
                this.client.charges(order.id()).size());
    }

    @Test
    void aChargeStillProcessingPastTheLookupWaitLeavesTheOrderInDoubtAndTheNextPaymentSettlesIt() {
        // 6s of processing: longer than the attempts (about 1.1s) and the lookup's wait
        // (3s)
        this.client.processing("primary", 6000);
        OrderView order = this.client.createOrder("tok_visa");
        String key = "long-processing-" + order.id();

        ResponseEntity<PaymentResponse> inDoubt = this.client.pay(order.id(), key);

        assertThat(inDoubt.getBody().state()).isEqualTo(OrderState.PAYMENT_IN_DOUBT);
        assertThat(this.client.order(order.id()).state()).isEqualTo(OrderState.PAYMENT_IN_DOUBT);
        assertThat(inDoubt.getStatusCode()).isEqualTo(HttpStatus.BAD_GATEWAY);
        assertThat(inDoubt.getBody().deadLetterId()).isNotNull();

        awaitPrimaryFinished(order.id());
        this.client.processing("primary", 0);
        PaymentResponse settled = this.client.pay(order.id(), key).getBody();

        assertThat(settled.state()).isEqualTo(OrderState.PAID);
        assertThat(this.client.charges(order.id())).singleElement()
            .extracting(ChargeRecord::chargeId)
            .isEqualTo(settled.chargeId());
    }

    @Test
    void failoverWaitsUntilTheOtherGatewayHasFinishedWithTheKeyBeforeTrustingNoCharge() throws Exception {
        // the primary processes the first request for 2.5s; the breaker opens meanwhile,
        // so the
        // retry is refused and the backup fallback must first learn whether the primary
        // charged
        this.client.processing("primary", 2500);
        OrderView order = this.client.createOrder("tok_visa");
        long primaryRequests = this.client.requests("primary");
        long backupRequests = this.client.requests("backup");

        CompletableFuture<ResponseEntity<PaymentResponse>> payment = CompletableFuture
            .supplyAsync(() -> this.client.pay(order.id(), "failover-" + order.id()));
        await().atMost(BOUND)
            .pollInterval(Duration.ofMillis(5))
            .until(() -> this.client.requests("primary") > primaryRequests);
        this.client.forceBreaker("payment-gateway", "FORCED_OPEN");
        ResponseEntity<PaymentResponse> response = payment.get(BOUND.toSeconds(), TimeUnit.SECONDS);

        awaitPrimaryFinished(order.id());
        assertThat(response.getBody().fallback()).isEqualTo("payWithBackupGateway");
        assertThat(this.client.requests("backup")).as("backup requests").isEqualTo(backupRequests);
        assertThat(this.client.charges(order.id())).as("charges of order %d", order.id())
            .singleElement()
            .satisfies((charge) -> {
                assertThat(charge.gateway()).isEqualTo("primary");
                assertThat(charge.chargeId()).isEqualTo(response.getBody().chargeId());
            });
        assertThat(response.getBody().state()).isEqualTo(OrderState.PAID);
        assertThat(this.client.order(order.id()).state()).isEqualTo(OrderState.PAID);
        assertThat(this.client.report().ordersChargedMoreThanOnce()).doesNotContain(order.id());
        System.out.printf("FIGURES failover: order %d %s by %s, charges of the order %d%n", order.id(),
                response.getBody().state(), response.getBody().gateway(), this.client.charges(order.id()).size());
    }

    /**
     * Waits until the primary has recorded the charge it was processing for the order.
     */
    private void awaitPrimaryFinished(long orderId) {
        await().atMost(BOUND)
            .until(() -> this.client.charges("primary").stream().anyMatch((charge) -> charge.orderId() == orderId));
    }

}
