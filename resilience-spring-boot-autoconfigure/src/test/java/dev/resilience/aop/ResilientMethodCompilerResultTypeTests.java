package dev.resilience.aop;

import java.time.Duration;

import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start-time checks of a method's result type read the value of a method returning
 * {@code Mono<ExecutionResult<T>>} as {@code T}, as they read that of one returning
 * {@code ExecutionResult<T>}: an idempotent one with a store that reads replays only into
 * the declared type fails the start when {@code T} is {@code Object}, and a result
 * predicate fails it when {@code T} is {@code Void}.
 */
class ResilientMethodCompilerResultTypeTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class))
        .withPropertyValues("resilience.idempotency.fingerprint-secret=0123456789abcdef0123456789abcdef")
        .withBean(VirtualTimeSource.class)
        .withBean(IdempotencyStore.class, () -> new TypedStore(new InMemoryIdempotencyStore(new VirtualTimeSource())));

    @Test
    void idempotentMonoOfAnExecutionResultOfObjectFailsTheStartWithAStoreThatNeedsTheDeclaredType() {
        this.contextRunner.withBean("quotes", ObjectResultQuotes.class)
            .run((context) -> assertThat(analysisOf(context)).contains("bean 'quotes', method ObjectResultQuotes#quote")
                .contains("java.lang.Object declares none"));
    }

    @Test
    void idempotentMonoOfAnExecutionResultOfADeclaredTypeStarts() {
        this.contextRunner.withBean("quotes", StringResultQuotes.class)
            .run((context) -> assertThat(context).hasNotFailed());
    }

    @Test
    void retryOnResultOfAMonoOfAnExecutionResultOfVoidFailsTheStart() {
        this.contextRunner.withBean("mailer", VoidResultMailer.class)
            .run((context) -> assertThat(analysisOf(context)).contains("bean 'mailer', method VoidResultMailer#send")
                .contains("@Retryable(retryOnResult)")
                .contains("the method returns no value"));
    }

    private static String analysisOf(AssertableApplicationContext context) {
        assertThat(context).as("the start should have failed").hasFailed();
        return FailureAnalyses.describe(context.getStartupFailure());
    }

    static class ObjectResultQuotes {

        @Idempotent(key = "#key")
        public Mono<ExecutionResult<Object>> quote(String key) {
            return Mono.just(ExecutionResult.success("quote"));
        }

    }

    static class StringResultQuotes {

        @Idempotent(key = "#key")
        public Mono<ExecutionResult<String>> quote(String key) {
            return Mono.just(ExecutionResult.success("quote"));
        }

    }

    static class VoidResultMailer {

        @Retryable(name = "mail-result", maxAttempts = 2, delay = "0", retryOnResult = "#result == null")
        public Mono<ExecutionResult<Void>> send(String message) {
            return Mono.just(ExecutionResult.success(null));
        }

    }

    /**
     * A store that reads replays only into the declared type, as the Redis store does.
     */
    static final class TypedStore implements IdempotencyStore {

        private final InMemoryIdempotencyStore memory;

        TypedStore(InMemoryIdempotencyStore memory) {
            this.memory = memory;
        }

        @Override
        public ClaimResult claim(String key, String fingerprint, Duration inProgressTtl) {
            return this.memory.claim(key, fingerprint, inProgressTtl);
        }

        @Override
        public boolean complete(String key, String ownerToken, @Nullable Object result, Duration ttl) {
            return this.memory.complete(key, ownerToken, result, ttl);
        }

        @Override
        public boolean release(String key, String ownerToken) {
            return this.memory.release(key, ownerToken);
        }

        @Override
        public boolean requiresDeclaredResultType() {
            return true;
        }

    }

}
