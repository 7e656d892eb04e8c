package dev.resilience.sample;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.resilience.sample.order.OrderState;
import dev.resilience.sample.order.OrderView;
import dev.resilience.sample.payment.PaymentResponse;
import dev.resilience.sample.price.EthPrice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The capacity limits of the downstreams, made small: the backup gateway's bulkhead lets
 * one charge run at a time, so a payment that needs the backup while another holds it is
 * deferred without a request; the oracle's quota is two prices an hour, so the third read
 * serves the last good price without asking the oracle. A context of its own, with a
 * database of its own.
 */
@SampleApplicationTests
@TestPropertySource(properties = { "spring.datasource.url=jdbc:h2:mem:capacity;DB_CLOSE_DELAY=-1",
        "resilience.bulkhead.instances.backup-gateway.max-concurrent-calls=1", "spring.http.clients.read-timeout=10s",
        "resilience.rate-limiter.instances.price-oracle.limit=2",
        "resilience.rate-limiter.instances.price-oracle.period=1h" })
class CapacityLimitsTests {

    @LocalServerPort
    private int port;

    private SampleClient client;

    @BeforeEach
    void reset() {
        this.client = new SampleClient(this.port);
        this.client.reset();
    }

    @AfterEach
    void restore() {
        this.client.reset();
    }

    @Test
    void paymentThatFindsTheBackupGatewayFullIsDeferredWithoutARequestToIt() throws Exception {
        this.client.forceBreaker("payment-gateway", "FORCED_OPEN");
        this.client.faults("backup", 0, 3000, false);
        long backupRequests = this.client.requests("backup");
        OrderView first = this.client.createOrder("tok_visa");
        OrderView second = this.client.createOrder("tok_visa");

        CompletableFuture<PaymentResponse> holding = CompletableFuture
            .supplyAsync(() -> this.client.pay(first.id(), "bulkhead-" + first.id()).getBody());
        await().atMost(Duration.ofSeconds(10))
            .until(() -> this.client.requests("backup") == backupRequests + 1 && !holding.isDone());
        PaymentResponse refused = this.client.pay(second.id(), "bulkhead-" + second.id()).getBody();

        assertThat(refused.state()).isEqualTo(OrderState.PAYMENT_DEFERRED);
        PaymentResponse paid = holding.get(10, TimeUnit.SECONDS);
        assertThat(paid.state()).isEqualTo(OrderState.PAID);
        assertThat(paid.gateway()).isEqualTo("backup");
        assertThat(this.client.requests("backup")).isEqualTo(backupRequests + 1);
        assertThat(this.client.get("/actuator/bulkheads").toString()).contains("backup-gateway");
    }

    @Test
    void priceReadBeyondTheOracleQuotaServesTheLastGoodPriceWithoutAskingTheOracle() {
        RestClient http = RestClient.create("http://localhost:" + this.port);
        EthPrice fresh = http.get().uri("/prices/eth").retrieve().body(EthPrice.class);
        long oracleRequests = this.client.requests("oracle");

        EthPrice second = http.get().uri("/prices/eth").retrieve().body(EthPrice.class);
        EthPrice beyondQuota = http.get().uri("/prices/eth").retrieve().body(EthPrice.class);

        assertThat(fresh.stale()).isFalse();
        assertThat(second.stale()).isFalse();
        assertThat(beyondQuota.stale()).isTrue();
        assertThat(beyondQuota.usd()).isEqualByComparingTo(second.usd());
        assertThat(this.client.requests("oracle")).isEqualTo(oracleRequests + 1);
    }

}
