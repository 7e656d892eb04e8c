package dev.resilience.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import dev.resilience.annotation.RateLimited;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.core.RedisCallback;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application contexts, as two instances of one application, share a rate limiter
 * through one Redis: calls made at once from both, through the proxy of a
 * {@code @RateLimited(store = "redis")} bean, are admitted at most {@code limit} per
 * period in total, not per instance.
 */
class SharedRedisRateLimiterTests {

    private static final int THREADS_PER_INSTANCE = 16;

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ApplicationContextRunner instance = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                        DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withPropertyValues("spring.application.name=shop", "spring.data.redis.timeout=5s",
                "resilience.rate-limiter.redis.store-timeout=5s")
        .withBean(PriceOracle.class);

    @Test
    void twoInstancesCalledAtOnceAdmitTheLimitOfAPeriodInTotal() {
        this.instance.run((first) -> this.instance.run((second) -> {
            List<PriceOracle> oracles = oracles(first, second);

            Outcomes outcomes = callConcurrently(oracles, PriceOracle::hourly, counting(10));

            System.out.printf(
                    "FIGURES two instances x %d threads, 40 per hour shared in Redis: admitted=%d "
                            + "(first %d, second %d) refused=%d%n",
                    THREADS_PER_INSTANCE, outcomes.admitted.get(), oracles.get(0).runs(), oracles.get(1).runs(),
                    outcomes.refused.get());
            assertThat(outcomes.admitted.get()).as("40 in total, within one permit").isBetween(40, 41);
            assertThat(outcomes.admitted.get() + outcomes.refused.get()).isEqualTo(2 * THREADS_PER_INSTANCE * 10);
            assertThat(oracles.get(0).runs() + oracles.get(1).runs()).isEqualTo(outcomes.admitted.get());
            assertThat(outcomes.other).hasValue(0);
            assertThat(limiter(first, "hourly").permittedCalls() + limiter(second, "hourly").permittedCalls())
                .isEqualTo(outcomes.admitted.get());
            assertThat(limiter(first, "hourly").sharedPermits().storeErrors()).isZero();
            assertThat(limiter(second, "hourly").sharedPermits().storeErrors()).isZero();
        }));
    }

    @Test
    void twoInstancesCalledAtOnceForSeveralPeriodsAdmitTheSharedRateAndNoMore() {
        this.instance.run((first) -> this.instance.run((second) -> {
            List<PriceOracle> oracles = oracles(first, second);
            long start = redisMicros();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);

            Outcomes outcomes = callConcurrently(oracles, PriceOracle::quick, () -> System.nanoTime() < deadline);
            long elapsedMicros = redisMicros() - start;

            long refills = elapsedMicros / 50_000;
            System.out.printf(
                    "FIGURES two instances x %d threads for %d ms, 10 per 500ms shared in Redis: "
                            + "admitted=%d (at most %d) refused=%d%n",
                    THREADS_PER_INSTANCE, elapsedMicros / 1000, outcomes.admitted.get(), 10 + refills + 1,
                    outcomes.refused.get());
            assertThat(outcomes.admitted.get()).as("the burst, then one permit every 50ms, within one permit")
                .isBetween(10, (int) (10 + refills + 1));
            assertThat(outcomes.other).hasValue(0);
        }));
    }

    private static List<PriceOracle> oracles(ApplicationContext first, ApplicationContext second) {
        return List.of(first.getBean(PriceOracle.class), second.getBean(PriceOracle.class));
    }

    private static RateLimiter limiter(ApplicationContext context, String name) {
        return context.getBean(ResilienceRegistry.class).findRateLimiter(name).orElseThrow();
    }

    private static BooleanSupplier counting(int callsPerThread) {
        ThreadLocal<int[]> calls = ThreadLocal.withInitial(() -> new int[1]);
        return () -> calls.get()[0]++ < callsPerThread;
    }

    private static Outcomes callConcurrently(List<PriceOracle> oracles, Call call, BooleanSupplier more)
            throws Exception {
        Outcomes outcomes = new Outcomes();
        ExecutorService threads = Executors.newFixedThreadPool(oracles.size() * THREADS_PER_INSTANCE);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> running = new ArrayList<>();
            for (PriceOracle oracle : oracles) {
                for (int i = 0; i < THREADS_PER_INSTANCE; i++) {
                    running.add(threads.submit(() -> {
                        start.await();
                        while (more.getAsBoolean()) {
                            try {
                                call.on(oracle);
                                outcomes.admitted.incrementAndGet();
                            }
                            catch (RateLimitedException ex) {
                                outcomes.refused.incrementAndGet();
                            }
                            catch (RuntimeException ex) {
                                outcomes.other.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
            }
            start.countDown();
            for (Future<?> future : running) {
                future.get(60, TimeUnit.SECONDS);
            }
        }
        finally {
            threads.shutdownNow();
        }
        return outcomes;
    }

    private static long redisMicros() {
        return redis.template()
            .execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time(TimeUnit.MICROSECONDS));
    }

    private interface Call {

        void on(PriceOracle oracle);

    }

    private static final class Outcomes {

        private final AtomicInteger admitted = new AtomicInteger();

        private final AtomicInteger refused = new AtomicInteger();

        private final AtomicInteger other = new AtomicInteger();

    }

    static class PriceOracle {

        private final AtomicInteger runs = new AtomicInteger();

        public int runs() {
            return this.runs.get();
        }

        @RateLimited(name = "hourly", limit = 40, period = "1h", store = "redis")
        public String hourly() {
            this.runs.incrementAndGet();
            return "ETH 3200";
        }

        @RateLimited(name = "quick", limit = 10, period = "500ms", store = "redis")
        public String quick() {
            this.runs.incrementAndGet();
            return "BTC 61000";
        }

    }

}
