package dev.resilience.sample;

import java.time.Duration;

import dev.resilience.sample.order.OrderState;
import dev.resilience.sample.order.OrderView;
import dev.resilience.sample.payment.PaymentResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The primary gateway down: the breaker opens, the backup takes every payment without the
 * primary being called, and once the primary is back and the breaker's wait is over, the
 * probes succeed and the breaker closes.
 */
@SampleApplicationTests
class PrimaryOutageTests {

    @LocalServerPort
    private int port;

    private SampleClient client;

    @BeforeEach
    void takeThePrimaryDown() {
        this.client = new SampleClient(this.port);
        this.client.reset();
        this.client.faults("primary", 0, 0, true);
    }

    @AfterEach
    void restore() {
        this.client.reset();
    }

    @Test
    void breakerOpensBackupTakesOverAndBreakerClosesAfterRecovery() {
        int paymentsUntilOpen = 0;
        while (!this.client.breakerState("payment-gateway").equals("OPEN")) {
            assertThat(paymentsUntilOpen).as("payments before the breaker opens").isLessThan(5);
            assertPaidBy("backup", pay());
            paymentsUntilOpen++;
        }
        long primaryRequests = this.client.requests("primary");
        for (int i = 0; i < 3; i++) {
            PaymentResponse payment = pay();
            assertPaidBy("backup", payment);
            assertThat(payment.attempts()).isZero();
        }
        assertThat(this.client.requests("primary")).isEqualTo(primaryRequests);
        assertThat(this.client.get("/actuator/circuitbreakers/payment-gateway").get("notPermittedCalls").asInt())
            .isGreaterThanOrEqualTo(3);

        this.client.faults("primary", 0, 0, false);
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            pay();
            assertThat(this.client.breakerState("payment-gateway")).isEqualTo("CLOSED");
        });
        assertPaidBy("primary", pay());
        assertThat(this.client.report().ordersChargedMoreThanOnce()).isEmpty();
        System.out.printf("FIGURES outage: %d payments before the breaker opened, primary requests while open +0, "
                + "%d after recovery%n", paymentsUntilOpen, this.client.requests("primary") - primaryRequests);
    }

    private PaymentResponse pay() {
        OrderView order = this.client.createOrder("tok_visa");
        return this.client.pay(order.id(), "outage-" + order.id()).getBody();
    }

    private static void assertPaidBy(String gateway, PaymentResponse payment) {
        assertThat(payment.state()).isEqualTo(OrderState.PAID);
        assertThat(payment.gateway()).isEqualTo(gateway);
    }

}
