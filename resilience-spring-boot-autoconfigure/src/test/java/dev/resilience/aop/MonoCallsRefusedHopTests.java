package dev.resilience.aop;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call of a method returning {@code Mono} with a store that may block, subscribed on a
 * thread Reactor marks non-blocking, whose executor refuses to start it: the call ends
 * with status ERROR and the executor's refusal, as when the executor refuses a later
 * step, and the method never runs.
 */
class MonoCallsRefusedHopTests {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void callWhoseStartTheExecutorRefusesEndsWithTheRefusal() {
        InMemoryIdempotencyStore memory = new InMemoryIdempotencyStore(new VirtualTimeSource());
        IdempotencyStore own = new IdempotencyStore() {
            @Override
            public ClaimResult claim(String key, String fingerprint, Duration inProgressTtl) {
                return memory.claim(key, fingerprint, inProgressTtl);
            }

            @Override
            public boolean complete(String key, String ownerToken, @Nullable Object result, Duration ttl) {
                return memory.complete(key, ownerToken, result, ttl);
            }

            @Override
            public boolean release(String key, String ownerToken) {
                return memory.release(key, ownerToken);
            }
        };
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                    ResilienceAutoConfiguration.class))
            .withPropertyValues("resilience.async.executor=refusing",
                    "resilience.idempotency.fingerprint-secret=0123456789abcdef0123456789abcdef")
            .withBean("refusing", Executor.class, () -> (task) -> {
                throw new RejectedExecutionException("saturated");
            })
            .withBean(IdempotencyStore.class, () -> own)
            .withBean(Quotes.class)
            .run((context) -> {
                Quotes quotes = context.getBean(Quotes.class);

                StepVerifier.create(quotes.result("k-1").subscribeOn(Schedulers.parallel())).assertNext((result) -> {
                    assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
                    assertThat(result.error()).isInstanceOf(RejectedExecutionException.class).hasMessage("saturated");
                    assertThat(result.attempts()).isZero();
                }).expectComplete().verify(BOUND);
                StepVerifier.create(quotes.quote("k-2").subscribeOn(Schedulers.parallel()))
                    .expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(RejectedExecutionException.class)
                        .hasMessage("saturated"))
                    .verify(BOUND);

                assertThat(quotes.calls()).isZero();
            });
    }

    static class Quotes {

        private final AtomicInteger calls = new AtomicInteger();

        int calls() {
            return this.calls.get();
        }

        @Idempotent(name = "hop-result", key = "#key")
        public Mono<ExecutionResult<String>> result(String key) {
            this.calls.incrementAndGet();
            return Mono.just(ExecutionResult.success("quote"));
        }

        @Idempotent(name = "hop-quote", key = "#key")
        public Mono<String> quote(String key) {
            this.calls.incrementAndGet();
            return Mono.just("quote");
        }

    }

}
