package dev.resilience.metrics;

import java.util.concurrent.CompletableFuture;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.RateLimited;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceMetricsAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call that gives up its wait for a permit (its future cancelled) was not let through,
 * and {@code resilience.ratelimiter.calls} counts it {@code rejected}, as the README
 * says. {@code resilience.bulkhead.calls} must count the same event the same way: a
 * caller that stops waiting on a full bulkhead is a sign of its saturation, and must not
 * vanish from the meter that reports it.
 */
class ResilienceMeterBinderReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceMetricsAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(SimpleMeterRegistry.class)
        .withBean("callerRunsExecutor", java.util.concurrent.Executor.class, () -> Runnable::run)
        .withPropertyValues("resilience.async.executor=callerRunsExecutor")
        .withBean(Gateway.class);

    /**
     * The bulkhead's meter counts a cancelled wait as rejected, as the rate limiter's
     * does.
     */
    @Test
    void bulkheadCountsACancelledWaitAsRejectedAsTheRateLimiterDoes() {
        this.contextRunner.run((context) -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            Gateway gateway = context.getBean(Gateway.class);
            gateway.held();
            CompletableFuture<String> waiting = gateway.held();

            waiting.cancel(true);

            assertThat(count(meters, "resilience.bulkhead.calls", "pool", "permitted")).isOne();
            assertThat(count(meters, "resilience.bulkhead.calls", "pool", "rejected")).as("the cancelled wait").isOne();
        });
    }

    private static double count(MeterRegistry meters, String meter, String name, String outcome) {
        return meters.get(meter).tag("name", name).tag("outcome", outcome).functionCounter().count();
    }

    static class Gateway {

        private final CompletableFuture<String> pending = new CompletableFuture<>();

        @Bulkhead(name = "pool", maxConcurrentCalls = 1, maxWait = "10s")
        public CompletableFuture<String> held() {
            return this.pending;
        }

        @RateLimited(name = "quotes", limit = 1, period = "1m", timeout = "2m")
        public CompletableFuture<String> quoted() {
            return CompletableFuture.completedFuture("quote");
        }

    }

}
