package dev.resilience.redis;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.resilience.annotation.RateLimited;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.registry.ResilienceRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.ReactiveRedisClusterConnection;
import org.springframework.data.redis.connection.ReactiveRedisConnection;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Asynchronous calls of a {@code @RateLimited(store = "redis")} method, on the system
 * clock: the permit's round trip to Redis runs on the thread that runs the call's step
 * (the caller's for the first attempt, the executor's for a retry), never on the timer
 * thread, whose only part is to complete a reserved permit; a call cancelled while it
 * waits gives its reservation back in Redis.
 */
class RedisRateLimiterAsyncTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final LettuceConnectionFactory lettuce = redis.connectionFactory();

    private final RecordingConnectionFactory connections = new RecordingConnectionFactory(this.lettuce);

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                ResilienceRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
        .withBean(RedisConnectionFactory.class, () -> this.connections)
        .withBean("steps", ThreadPoolTaskExecutor.class, () -> {
            ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
            executor.setThreadNamePrefix("steps-");
            executor.setCorePoolSize(2);
            return executor;
        })
        .withPropertyValues("resilience.async.executor=steps", "spring.application.name=feeds",
                "resilience.rate-limiter.redis.store-timeout=5s")
        .withBean(Feeds.class);

    @AfterEach
    void close() {
        this.lettuce.destroy();
    }

    @Test
    void theRoundTripOfAPermitRunsOnTheCallersThreadThenOnTheExecutorsForARetryNeverOnTheTimer() {
        this.contextRunner.run((context) -> {
            Feeds feeds = context.getBean(Feeds.class);
            assertThat(feeds.hourly().join()).as("the store is connected: it sends from the caller's thread")
                .isEqualTo("hourly");
            this.connections.threads.clear();

            String value = onThread("caller", feeds::retried).get().join();

            assertThat(value).isEqualTo("feed");
            assertThat(this.connections.threads).hasSize(2);
            assertThat(this.connections.threads.get(0)).isEqualTo("caller");
            assertThat(this.connections.threads.get(1)).startsWith("steps-");
            assertThat(limiter(context.getBean(ResilienceRegistry.class), "retried").permittedCalls()).isEqualTo(2);
        });
    }

    @Test
    void aReservedPermitIsCompletedByTheTimerAndTheMethodRunsOnTheExecutor() {
        this.contextRunner.run((context) -> {
            Feeds feeds = context.getBean(Feeds.class);
            assertThat(feeds.patient().join()).as("a free permit runs the method at once, on the caller's thread")
                .isEqualTo("patient on " + Thread.currentThread().getName());
            this.connections.threads.clear();

            CompletableFuture<String> waiting = onThread("caller", feeds::patient).get();

            assertThat(waiting).as("the next permit is 2s away").isNotDone();
            assertThat(waiting.get()).startsWith("patient on steps-");
            assertThat(this.connections.threads).containsExactly("caller");
        });
    }

    @Test
    void aCallCancelledWhileItWaitsGivesItsReservationBackInRedis() {
        this.contextRunner.run((context) -> {
            Feeds feeds = context.getBean(Feeds.class);
            assertThat(feeds.hourly().join()).isEqualTo("hourly");
            String spent = redis.template().opsForValue().get("feeds:ratelimit:{hourly}");

            CompletableFuture<String> waiting = feeds.hourly();
            assertThat(redis.template().opsForValue().get("feeds:ratelimit:{hourly}")).isNotEqualTo(spent);
            waiting.cancel(true);

            await().atMost(Duration.ofSeconds(5))
                .until(() -> spent.equals(redis.template().opsForValue().get("feeds:ratelimit:{hourly}")));
            RateLimiter hourly = limiter(context.getBean(ResilienceRegistry.class), "hourly");
            assertThat(hourly.rejectedCalls()).isOne();
            assertThat(this.connections.threads).noneMatch((thread) -> thread.startsWith("resilience-timer"));
        });
    }

    private static RateLimiter limiter(ResilienceRegistry registry, String name) {
        return registry.findRateLimiter(name).orElseThrow();
    }

    private static <T> AtomicReference<T> onThread(String name, java.util.function.Supplier<T> call)
            throws InterruptedException {
        AtomicReference<T> result = new AtomicReference<>();
        Thread thread = new Thread(() -> result.set(call.get()), name);
        thread.start();
        thread.join();
        return result;
    }

    static class Feeds {

        private final AtomicInteger attempts = new AtomicInteger();

        @Retryable(name = "retried", maxAttempts = 2, delay = "50ms")
        @RateLimited(name = "retried", limit = 100, period = "1s", store = "redis")
        public CompletableFuture<String> retried() {
            if (this.attempts.incrementAndGet() == 1) {
                return CompletableFuture.failedFuture(new IOException("feed not ready"));
            }
            return CompletableFuture.completedFuture("feed");
        }

        @RateLimited(name = "patient", limit = 1, period = "2s", timeout = "3s", store = "redis")
        public CompletableFuture<String> patient() {
            return CompletableFuture.completedFuture("patient on " + Thread.currentThread().getName());
        }

        @RateLimited(name = "hourly", limit = 1, period = "30m", timeout = "1h", store = "redis")
        public CompletableFuture<String> hourly() {
            return CompletableFuture.completedFuture("hourly");
        }

    }

    /**
     * A connection factory over Lettuce's that records which thread asks for each
     * reactive connection, as the stores' commands do, one each.
     */
    static final class RecordingConnectionFactory implements RedisConnectionFactory, ReactiveRedisConnectionFactory {

        private final LettuceConnectionFactory delegate;

        private final List<String> threads = new CopyOnWriteArrayList<>();

        RecordingConnectionFactory(LettuceConnectionFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        public ReactiveRedisConnection getReactiveConnection() {
            this.threads.add(Thread.currentThread().getName());
            return this.delegate.getReactiveConnection();
        }

        @Override
        public ReactiveRedisClusterConnection getReactiveClusterConnection() {
            return this.delegate.getReactiveClusterConnection();
        }

        @Override
        public boolean getConvertPipelineAndTxResults() {
            return this.delegate.getConvertPipelineAndTxResults();
        }

        @Override
        public RedisConnection getConnection() {
            return this.delegate.getConnection();
        }

        @Override
        public RedisClusterConnection getClusterConnection() {
            return this.delegate.getClusterConnection();
        }

        @Override
        public RedisSentinelConnection getSentinelConnection() {
            return this.delegate.getSentinelConnection();
        }

        @Override
        public @Nullable DataAccessException translateExceptionIfPossible(RuntimeException ex) {
            return this.delegate.translateExceptionIfPossible(ex);
        }

    }

}
