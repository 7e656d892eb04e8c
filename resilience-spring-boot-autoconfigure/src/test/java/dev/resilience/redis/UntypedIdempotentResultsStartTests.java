package dev.resilience.redis;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.registry.InvalidResiliencePolicyException;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An {@code @Idempotent} method whose declared result is {@code Object} or a bare type
 * variable declares no type for a replay to be read into: with the Redis store, whose
 * stored data would then choose the class, the start fails saying what to fix; the memory
 * store, which keeps the class the method returned, starts.
 */
class UntypedIdempotentResultsStartTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                        DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withPropertyValues(FingerprintSecret.PROPERTY);

    @Test
    void methodReturningObjectWithTheRedisStoreFailsTheStart() {
        this.contextRunner.withPropertyValues("resilience.idempotency.store=redis")
            .withBean("lookups", ObjectLookups.class)
            .run((context) -> {
                assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .isInstanceOf(InvalidResiliencePolicyException.class);
                assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                    .contains("bean 'lookups', method ObjectLookups#find")
                    .contains("java.lang.Object")
                    .contains("resilience.idempotency.store=redis")
                    .contains("Declare the concrete return type");
            });
    }

    @Test
    void methodReturningAFutureOfObjectOrAnOptionalOfATypeVariableWithTheRedisStoreFailsTheStart() {
        this.contextRunner.withPropertyValues("resilience.idempotency.store=redis")
            .withBean("lookups", FutureLookups.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("method FutureLookups#find"));
        this.contextRunner.withPropertyValues("resilience.idempotency.store=redis")
            .withBean("lookups", OptionalLookups.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("method OptionalLookups#find"));
    }

    @Test
    void methodReturningObjectWithTheMemoryStoreStartsAndReplays() {
        this.contextRunner.withBean("lookups", ObjectLookups.class).run((context) -> {
            assertThat(context).hasNotFailed();
            ObjectLookups lookups = context.getBean(ObjectLookups.class);
            assertThat(lookups.find("k")).isEqualTo(new Receipt("k", 1, java.time.Instant.EPOCH));
            assertThat(lookups.find("k")).isEqualTo(new Receipt("k", 1, java.time.Instant.EPOCH));
            assertThat(lookups.runs()).isOne();
        });
    }

    static class ObjectLookups {

        private final java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();

        public int runs() {
            return this.runs.get();
        }

        @Idempotent(key = "#key")
        public Object find(String key) {
            this.runs.incrementAndGet();
            return new Receipt(key, 1, java.time.Instant.EPOCH);
        }

    }

    static class FutureLookups {

        @Idempotent(key = "#key")
        public CompletableFuture<Object> find(String key) {
            return CompletableFuture.completedFuture(key);
        }

    }

    static class OptionalLookups {

        @Idempotent(key = "#key")
        public <T> Optional<T> find(String key) {
            return Optional.empty();
        }

    }

}
