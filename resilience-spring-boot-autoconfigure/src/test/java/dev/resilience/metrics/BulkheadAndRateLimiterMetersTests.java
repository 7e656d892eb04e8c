package dev.resilience.metrics;

import java.util.concurrent.CompletableFuture;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.RateLimited;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceMetricsAutoConfiguration;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The meters of bulkheads and rate limiters: present from the start, for annotated and
 * configured instances alike, with exact values after calls.
 */
class BulkheadAndRateLimiterMetersTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceMetricsAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(SimpleMeterRegistry.class)
        .withBean("callerRunsExecutor", java.util.concurrent.Executor.class, () -> Runnable::run)
        .withPropertyValues("resilience.async.executor=callerRunsExecutor",
                "resilience.bulkhead.instances.configured-pool.max-concurrent-calls=7",
                "resilience.rate-limiter.instances.configured-quota.limit=9")
        .withBean(Gateway.class);

    @Test
    void everyInstanceHasItsMetersAtStartup() {
        this.contextRunner.run((context) -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            for (String name : new String[] { "pool", "configured-pool" }) {
                assertThat(count(meters, "resilience.bulkhead.calls", name, "permitted")).isZero();
                assertThat(count(meters, "resilience.bulkhead.calls", name, "rejected")).isZero();
                assertThat(gauge(meters, "resilience.bulkhead.concurrent", name)).isZero();
            }
            assertThat(gauge(meters, "resilience.bulkhead.limit", "pool")).isEqualTo(1);
            assertThat(gauge(meters, "resilience.bulkhead.limit", "configured-pool")).isEqualTo(7);
            for (String name : new String[] { "quota", "configured-quota" }) {
                assertThat(count(meters, "resilience.ratelimiter.calls", name, "permitted")).isZero();
                assertThat(count(meters, "resilience.ratelimiter.calls", name, "rejected")).isZero();
            }
            assertThat(gauge(meters, "resilience.ratelimiter.available", "quota")).isEqualTo(3);
            assertThat(gauge(meters, "resilience.ratelimiter.available", "configured-quota")).isEqualTo(9);
        });
    }

    @Test
    void methodsWithoutARetryHaveCallTimersButNoRetryOrDeadLetterCounters() {
        this.contextRunner.run((context) -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);

            assertThat(meters.get("resilience.calls").tag("name", "pool").timers()).isNotEmpty();
            assertThat(meters.get("resilience.calls").tag("name", "quota").timers()).isNotEmpty();
            assertThat(meters.find("resilience.retries").meters()).isEmpty();
            assertThat(meters.find("resilience.retry.budget.refused").meters()).isEmpty();
            assertThat(meters.find("resilience.deadletters").meters()).isEmpty();
        });
    }

    @Test
    void metersReadTheInstancesAfterCalls() {
        this.contextRunner.run((context) -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            Gateway gateway = context.getBean(Gateway.class);

            CompletableFuture<String> held = gateway.hold();
            assertThat(gateway.hold().handle((value, failure) -> failure).join())
                .isInstanceOf(BulkheadFullException.class);
            assertThat(gauge(meters, "resilience.bulkhead.concurrent", "pool")).isEqualTo(1);
            gateway.release("done");
            assertThat(held.join()).isEqualTo("done");
            gateway.limited();
            gateway.limited();
            gateway.limited();
            assertThatExceptionOfType(RateLimitedException.class).isThrownBy(gateway::limited);

            assertThat(count(meters, "resilience.bulkhead.calls", "pool", "permitted")).isEqualTo(1);
            assertThat(count(meters, "resilience.bulkhead.calls", "pool", "rejected")).isEqualTo(1);
            assertThat(gauge(meters, "resilience.bulkhead.concurrent", "pool")).isZero();
            assertThat(count(meters, "resilience.ratelimiter.calls", "quota", "permitted")).isEqualTo(3);
            assertThat(count(meters, "resilience.ratelimiter.calls", "quota", "rejected")).isEqualTo(1);
            assertThat(gauge(meters, "resilience.ratelimiter.available", "quota")).isZero();
        });
    }

    private static double count(MeterRegistry meters, String meter, String name, String outcome) {
        return meters.get(meter).tag("name", name).tag("outcome", outcome).functionCounter().count();
    }

    private static double gauge(MeterRegistry meters, String meter, String name) {
        return meters.get(meter).tag("name", name).gauge().value();
    }

    static class Gateway {

        private volatile CompletableFuture<String> pending = new CompletableFuture<>();

        @Bulkhead(name = "pool", maxConcurrentCalls = 1)
        public CompletableFuture<String> hold() {
            return this.pending;
        }

        public void release(String value) {
            this.pending.complete(value);
        }

        @RateLimited(name = "quota", limit = 3, period = "1m")
        public String limited() {
            return "admitted";
        }

    }

}
