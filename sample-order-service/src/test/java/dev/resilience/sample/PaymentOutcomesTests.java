package dev.resilience.sample;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One payment at a time: a replay, a declined card, a key reused for another order, a
 * second payment of an order while the first runs, and a charge left in doubt by
 * timeouts, which becomes a dead letter and is settled later without a second charge.
 */
@SampleApplicationTests
class PaymentOutcomesTests {

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
    void aRepeatedKeyReplaysTheFirstPaymentWithoutCallingTheGateway() {
        OrderView order = this.client.createOrder("tok_visa");
        long primaryRequests = this.client.requests("primary");
        PaymentResponse first = this.client.pay(order.id(), "replay-" + order.id()).getBody();
        PaymentResponse second = this.client.pay(order.id(), "replay-" + order.id()).getBody();
        assertThat(first.state()).isEqualTo(OrderState.PAID);
        assertThat(first.replayed()).isFalse();
        assertThat(second.replayed()).isTrue();
        assertThat(second.chargeId()).isEqualTo(first.chargeId());
        assertThat(this.client.requests("primary")).isEqualTo(primaryRequests + 1);
    }

    @Test
    void aDeclinedCardIsNotRetriedNotChargedAndNoDeadLetter() {
        OrderView order = this.client.createOrder("tok_declined");
        long primaryRequests = this.client.requests("primary");
        long backupRequests = this.client.requests("backup");
        int deadLetters = this.client.get("/actuator/deadletters").get("deadLetters").size();

        ResponseEntity<PaymentResponse> response = this.client.pay(order.id(), "declined-" + order.id());

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(response.getBody().state()).isEqualTo(OrderState.PAYMENT_DECLINED);
        assertThat(response.getBody().outcome()).isEqualTo("FAILURE");
        assertThat(response.getBody().attempts()).isEqualTo(1);
        assertThat(this.client.order(order.id()).state()).isEqualTo(OrderState.PAYMENT_DECLINED);
        assertThat(this.client.requests("primary")).isEqualTo(primaryRequests + 1);
        assertThat(this.client.requests("backup")).isEqualTo(backupRequests);
        assertThat(this.client.charges(order.id())).isEmpty();
        assertThat(this.client.get("/actuator/deadletters").get("deadLetters").size()).isEqualTo(deadLetters);
    }

    @Test
    void aKeyReusedForAnotherOrderIsRefused() {
        OrderView first = this.client.createOrder("tok_visa");
        OrderView second = this.client.createOrder("tok_visa");
        this.client.pay(first.id(), "reused-" + first.id());
        ResponseEntity<JsonNode> refused = this.client.payExpectingProblem(second.id(), "reused-" + first.id());

        assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.UNPROCESSABLE_CONTENT);
        assertThat(refused.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(refused.getBody().get("problem").asString()).as("the starter's problem, not one of the sample's")
            .isEqualTo("idempotency-key-mismatch");
        assertThat(refused.getBody().get("instance").asString()).isEqualTo("/orders/" + second.id() + "/payment");
        assertThat(this.client.order(second.id()).state()).isEqualTo(OrderState.NEW);
    }

    @Test
    void aSecondPaymentOfAnOrderUnderAnotherKeyIsRefusedWhileTheFirstRuns() throws Exception {
        this.client.faults("primary", 0, 600, false);
        OrderView order = this.client.createOrder("tok_visa");
        CompletableFuture<ResponseEntity<PaymentResponse>> first = CompletableFuture
            .supplyAsync(() -> this.client.pay(order.id(), "first-" + order.id()));
        await().atMost(Duration.ofSeconds(10))
            .until(() -> this.client.order(order.id()).state() == OrderState.PAYMENT_PENDING);

        assertThat(this.client.payExpectingProblem(order.id(), "second-" + order.id()).getStatusCode())
            .isEqualTo(HttpStatus.CONFLICT);
        assertThat(first.get(10, TimeUnit.SECONDS).getBody().state()).isEqualTo(OrderState.PAID);
        assertThat(this.client.charges(order.id())).hasSize(1);
    }

    @Test
    void timeoutsAfterTheGatewayChargedLeaveTheOrderInDoubtAndPayingAgainChargesNothingMore() {
        this.client.faults("primary", 0, 2500, false);
        OrderView order = this.client.createOrder("tok_visa");
        String key = "doubt-" + order.id();

        ResponseEntity<PaymentResponse> inDoubt = this.client.pay(order.id(), key);

        assertThat(inDoubt.getStatusCode()).isEqualTo(HttpStatus.BAD_GATEWAY);
        assertThat(inDoubt.getBody().state()).isEqualTo(OrderState.PAYMENT_IN_DOUBT);
        assertThat(inDoubt.getBody().outcome()).isEqualTo("TIMEOUT");
        assertThat(inDoubt.getBody().deadLetterId()).isNotNull();
        assertThat(this.client.get("/actuator/deadletters/" + inDoubt.getBody().deadLetterId()).get("name").asString())
            .isEqualTo("payment");
        assertThat(this.client.charges(order.id())).singleElement()
            .extracting(ChargeRecord::gateway)
            .isEqualTo("primary");

        this.client.faults("primary", 0, 0, false);
        PaymentResponse settled = this.client.pay(order.id(), key).getBody();

        assertThat(settled.state()).isEqualTo(OrderState.PAID);
        assertThat(this.client.charges(order.id())).singleElement()
            .extracting(ChargeRecord::chargeId)
            .isEqualTo(settled.chargeId());
    }

}
