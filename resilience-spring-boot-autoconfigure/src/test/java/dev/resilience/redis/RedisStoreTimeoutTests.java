package dev.resilience.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyStoreException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.ThrowingSupplier;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A Redis that stops answering (frozen with {@code SIGSTOP}) holds a store call no longer
 * than the store's timeout, although the client's own command timeout is a minute: the
 * call fails closed as a store error naming that timeout, well within a minute (forty
 * times the timeout, room for a loaded machine), and the method does not run.
 */
class RedisStoreTimeoutTests {

    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(60);

    private static final Duration STORE_TIMEOUT = Duration.ofMillis(250);

    private static final Duration BOUND = STORE_TIMEOUT.multipliedBy(40);

    private static final Duration LEASE = Duration.ofSeconds(30);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final AtomicInteger executions = new AtomicInteger();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                        DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
        .withPropertyValues("resilience.idempotency.store=redis", "resilience.idempotency.store-timeout=250ms",
                "spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
                "spring.data.redis.timeout=60s")
        .withBean(PaymentService.class, () -> new PaymentService(this.executions));

    private final LettuceConnectionFactory connections = new LettuceConnectionFactory(
            new RedisStandaloneConfiguration("127.0.0.1", redis.port()),
            LettuceClientConfiguration.builder().commandTimeout(CLIENT_TIMEOUT).build());

    {
        this.connections.afterPropertiesSet();
        this.connections.start();
    }

    @AfterEach
    void thawAndClose() {
        redis.resume();
        this.connections.destroy();
    }

    @Test
    void idempotentCallOnAFrozenRedisFailsClosedWithinTheStoreTimeoutAndDoesNotRun() {
        this.contextRunner.run((context) -> {
            PaymentService payments = context.getBean(PaymentService.class);
            payments.pay("order-1", 100, "key-1");

            redis.pause();
            IdempotencyStoreException error = within(BOUND,
                    () -> catchStoreError(() -> payments.pay("order-2", 200, "key-2")));
            redis.resume();

            assertThat(error).hasMessageContaining("claim key").hasMessageContaining("did not answer within 250 ms");
            assertThat(this.executions).hasValue(1);
        });
    }

    @Test
    void storeBuiltWithoutATimeoutWaitsForAFrozenRedisNoLongerThanTheDefault() {
        RedisIdempotencyStore store = new RedisIdempotencyStore(new StringRedisTemplate(this.connections),
                JsonMapper.builder().build(), "idem:");
        assertThat(store.claim("warm-up", "f", LEASE)).isInstanceOf(ClaimResult.Acquired.class);

        redis.pause();
        IdempotencyStoreException error = within(RedisIdempotencyStore.DEFAULT_TIMEOUT.multipliedBy(10),
                () -> catchStoreError(() -> store.claim("k", "f", LEASE)));

        assertThat(error).hasMessageContaining("did not answer within 2000 ms");
    }

    @Test
    void completionAndReleaseOnAFrozenRedisFailWithinTheStoreTimeout() {
        RedisIdempotencyStore store = new RedisIdempotencyStore(new StringRedisTemplate(this.connections),
                JsonMapper.builder().build(), "idem:", STORE_TIMEOUT);
        String completing = ((ClaimResult.Acquired) store.claim("completing", "f", LEASE)).ownerToken();
        String releasing = ((ClaimResult.Acquired) store.claim("releasing", "f", LEASE)).ownerToken();

        redis.pause();
        IdempotencyStoreException completion = within(BOUND,
                () -> catchStoreError(() -> store.complete("completing", completing, "paid", LEASE)));
        IdempotencyStoreException release = within(BOUND,
                () -> catchStoreError(() -> store.release("releasing", releasing)));

        assertThat(completion).hasMessageContaining("complete key 'completing'")
            .hasCauseInstanceOf(QueryTimeoutException.class);
        assertThat(release).hasMessageContaining("release key 'releasing'")
            .hasCauseInstanceOf(QueryTimeoutException.class);
    }

    @Test
    void driverWithoutAReactiveApiIsBoundedAsWell() {
        RedisIdempotencyStore store = new RedisIdempotencyStore(
                new StringRedisTemplate(new BlockingConnectionFactory(this.connections)), JsonMapper.builder().build(),
                "idem:", STORE_TIMEOUT);
        assertThat(store.claim("warm-up", "f", LEASE)).isInstanceOf(ClaimResult.Acquired.class);

        redis.pause();
        IdempotencyStoreException error = within(BOUND, () -> catchStoreError(() -> store.claim("k", "f", LEASE)));

        assertThat(error).hasMessageContaining("did not answer within 250 ms");
    }

    @Test
    void deadLetterWriteOnAFrozenRedisIsCountedAsLostAndReadsTimeOutWithinTheStoreTimeout() {
        RedisDeadLetterStore store = new RedisDeadLetterStore(new StringRedisTemplate(this.connections),
                JsonMapper.builder().build(), RedisDeadLetterStore.DEFAULT_NAME, 10, STORE_TIMEOUT);
        assertThat(store.size()).isZero();

        redis.pause();
        within(BOUND, () -> {
            store.write(deadLetter());
            return null;
        });
        DataAccessException read = within(BOUND, () -> {
            try {
                store.list(10);
                return null;
            }
            catch (DataAccessException ex) {
                return ex;
            }
        });

        assertThat(store.failedWrites()).isOne();
        assertThat(read).isInstanceOf(QueryTimeoutException.class).hasMessage("Redis did not answer within 250 ms");
    }

    private static <T> T within(Duration bound, ThrowingSupplier<T> call) {
        return assertTimeoutPreemptively(bound, call);
    }

    private static IdempotencyStoreException catchStoreError(ThrowingSupplier<?> call) {
        try {
            Object result = call.get();
            throw new AssertionError("expected an IdempotencyStoreException, got " + result);
        }
        catch (IdempotencyStoreException ex) {
            return ex;
        }
        catch (Throwable ex) {
            throw new AssertionError("expected an IdempotencyStoreException", ex);
        }
    }

    private static DeadLetter deadLetter() {
        Instant now = Instant.now();
        return new DeadLetter("dl-1", "notify", "PaymentService#notifyShipping", List.of("order-1"),
                IllegalStateException.class.getName(), "shipping is down", 2, now, now, ExecutionStatus.ERROR);
    }

}
