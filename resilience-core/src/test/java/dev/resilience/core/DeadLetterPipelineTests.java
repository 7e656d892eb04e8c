package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DeadLetterPipelineTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final InMemoryDeadLetterStore deadLetters = new InMemoryDeadLetterStore();

    private final CallContext context = new CallContext("PaymentService#pay", null,
            Arrays.asList("order-1", 1250L, null), null, "", ExecutionListener.NONE);

    private ResiliencePipeline.Builder pipeline() {
        return ResiliencePipeline.builder("payment")
            .timeSource(this.clock)
            .deadLetters(this.deadLetters)
            .retry(RetryPolicy.builder()
                .maxAttempts(3)
                .backoff(Backoff.of(Duration.ofMillis(100), 1.0, Duration.ofMillis(100), Jitter.NONE))
                .abortOn(IllegalArgumentException.class)
                .build());
    }

    @Test
    void exhaustedRetriesWriteADeadLetterWithTheCallsDetails() {
        ExecutionResult<String> result = pipeline().build()
            .execute(this.context,
                    FlakyAction.failing(new IOException("1"), new IOException("2"), new IOException("gateway down")));

        assertThat(this.deadLetters.list(10)).singleElement().satisfies((deadLetter) -> {
            assertThat(deadLetter.name()).isEqualTo("payment");
            assertThat(deadLetter.method()).isEqualTo("PaymentService#pay");
            assertThat(deadLetter.arguments()).containsExactly("\"order-1\"", "1250", "null");
            assertThat(deadLetter.errorClass()).isEqualTo(IOException.class.getName());
            assertThat(deadLetter.errorMessage()).isEqualTo("gateway down");
            assertThat(deadLetter.attempts()).isEqualTo(3);
            assertThat(deadLetter.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(deadLetter.firstAttemptAt()).isEqualTo(this.clock.now().minusMillis(200));
            assertThat(deadLetter.lastAttemptAt()).isEqualTo(this.clock.now());
            assertThat(result.metadata()).containsEntry(ExecutionResult.DEAD_LETTER_ID, deadLetter.id());
        });
    }

    @Test
    void businessFailureIsNotADeadLetter() {
        pipeline().build().execute(this.context, FlakyAction.failing(new IllegalArgumentException("card declined")));

        assertThat(this.deadLetters.size()).isZero();
    }

    @Test
    void callRejectedByAnOpenBreakerIsADeadLetter() {
        CircuitBreaker breaker = CircuitBreaker.of("gateway", CircuitBreakerConfig.ofDefaults(), this.clock);
        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);

        pipeline().circuitBreaker(breaker).build().execute(this.context, FlakyAction.failing());

        assertThat(this.deadLetters.list(10)).singleElement().satisfies((deadLetter) -> {
            assertThat(deadLetter.status()).isEqualTo(ExecutionStatus.REJECTED);
            assertThat(deadLetter.attempts()).isZero();
        });
    }

    @Test
    void callRejectedByANestedOpenBreakerIsADeadLetter() {
        pipeline().build()
            .execute(this.context, FlakyAction
                .failing(new CallNotPermittedException("ledger", CircuitBreakerState.FORCED_OPEN, null)));

        assertThat(this.deadLetters.list(10)).singleElement().satisfies((deadLetter) -> {
            assertThat(deadLetter.status()).isEqualTo(ExecutionStatus.REJECTED);
            assertThat(deadLetter.errorClass()).isEqualTo(CallNotPermittedException.class.getName());
        });
    }

    @Test
    void callRefusedByARateLimiterOrAFullBulkheadIsNotADeadLetter() throws Exception {
        RateLimiter rateLimiter = RateLimiter.of("quotes",
                RateLimiterConfig.builder().limit(1).period(Duration.ofHours(1)).build(), this.clock);
        ResiliencePipeline limited = pipeline().rateLimiter(rateLimiter).build();
        Bulkhead bulkhead = Bulkhead.of("printers", BulkheadConfig.builder().maxConcurrentCalls(1).build(), this.clock);
        bulkhead.acquire();

        ExecutionResult<String> first = limited.execute(this.context, () -> "quote");
        ExecutionResult<String> refusedByTheLimiter = limited.execute(this.context, () -> "quote");
        ExecutionResult<String> refusedByTheBulkhead = pipeline().bulkhead(bulkhead)
            .build()
            .execute(this.context, () -> "printed");
        ExecutionResult<String> refusedInside = pipeline().build()
            .execute(this.context, FlakyAction.failing(new BulkheadFullException("nested", 4),
                    new RateLimitedException("nested", Duration.ofSeconds(1))));

        assertThat(first.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(List.of(refusedByTheLimiter, refusedByTheBulkhead, refusedInside))
            .allSatisfy((result) -> assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED));
        assertThat(this.deadLetters.size()).isZero();
    }

    @Test
    void callRejectedBecauseItsKeyIsInProgressIsNotADeadLetter() {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.clock);
        ResiliencePipeline pipeline = pipeline().idempotency(IdempotencyPolicy.of("pay", store)).build();
        CallContext idempotent = CallContext.idempotent("key-1", "fp");

        pipeline.execute(idempotent, () -> pipeline.execute(idempotent, () -> "nested").status());

        assertThat(this.deadLetters.size()).isZero();
    }

    @Test
    void callThatSucceedsThroughAFallbackIsNotADeadLetter() {
        pipeline().fallbacks(FallbackChain.of(FallbackHandler.of("defer", (error, call) -> "deferred")))
            .build()
            .execute(this.context,
                    FlakyAction.failing(new IOException("1"), new IOException("2"), new IOException("3")));

        assertThat(this.deadLetters.size()).isZero();
    }

    @Test
    void failingStoreNeverChangesTheOutcome() {
        DeadLetterStore broken = new DeadLetterStore() {
            @Override
            public void write(DeadLetter deadLetter) {
                throw new IllegalStateException("disk full");
            }

            @Override
            public List<DeadLetter> list(int limit) {
                return List.of();
            }

            @Override
            public java.util.Optional<DeadLetter> find(String id) {
                return java.util.Optional.empty();
            }

            @Override
            public boolean delete(String id) {
                return false;
            }

            @Override
            public int size() {
                return 0;
            }
        };
        IOException failure = new IOException("down");

        ExecutionResult<String> result = pipeline().deadLetters(broken)
            .build()
            .execute(this.context, FlakyAction.failing(failure, failure, failure));

        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isSameAs(failure);
        assertThat(result.metadata()).doesNotContainKey(ExecutionResult.DEAD_LETTER_ID);
    }

    @Test
    void argumentsAreRenderedAsDataNeverWithToString() {
        CallContext context = new CallContext("PaymentService#pay", null,
                Arrays.asList("o-\"1\"", 12.5, true, ExecutionStatus.ERROR, 'x', new Opaque()), null, "",
                ExecutionListener.NONE);

        pipeline().build()
            .execute(context, FlakyAction.failing(new IOException("1"), new IOException("2"), new IOException("3")));

        assertThat(this.deadLetters.list(1).get(0).arguments()).containsExactly("\"o-\\\"1\\\"\"", "12.5", "true",
                "\"ERROR\"", "\"x\"", "<" + Opaque.class.getName() + ">");
        assertThat(this.deadLetters.list(1).get(0).toString()).doesNotContain("s3cr3t");
    }

    @Test
    void urlsInTheErrorMessageLoseTheirUserInfoQueryAndFragment() {
        IOException failure = new IOException(
                "I/O error on GET request for \"https://user:pw@host/path?token=abc#frag\": Connection refused");

        pipeline().build().execute(this.context, FlakyAction.failing(failure, failure, failure));

        assertThat(this.deadLetters.list(1).get(0).errorMessage())
            .isEqualTo("I/O error on GET request for \"https://host/path\": Connection refused");
    }

    @Test
    void argumentsLongerThanTheBoundAreTruncatedOnACharacterWithAMarker() {
        String euros = "\u20ac".repeat(10);
        CallContext context = new CallContext("PaymentService#pay", null, List.of(euros), null, "",
                ExecutionListener.NONE);

        pipeline().maxArgumentSize(8)
            .argumentRenderer((argument) -> (String) argument)
            .build()
            .execute(context, FlakyAction.failing(new IOException("1"), new IOException("2"), new IOException("3")));

        assertThat(this.deadLetters.list(1).get(0).arguments()).containsExactly("\u20ac\u20ac...[truncated 24 bytes]");
    }

    @Test
    void argumentsWithinTheBoundAreKeptWhole() {
        pipeline().maxArgumentSize(9)
            .build()
            .execute(this.context,
                    FlakyAction.failing(new IOException("1"), new IOException("2"), new IOException("3")));

        assertThat(this.deadLetters.list(1).get(0).arguments()).containsExactly("\"order-1\"", "1250", "null");
    }

    @Test
    void errorMessagesLongerThanTheBoundAreTruncatedWithAMarker() {
        IOException failure = new IOException("upstream answered: " + "x".repeat(1_000_000));

        pipeline().maxArgumentSize(64).build().execute(this.context, FlakyAction.failing(failure, failure, failure));

        assertThat(this.deadLetters.list(1).get(0).errorMessage())
            .isEqualTo("upstream answered: " + "x".repeat(45) + "...[truncated 999955 bytes]");
    }

    /** A type with no data to write, whose {@code toString()} prints a secret. */
    static final class Opaque {

        private final String password = "s3cr3t";

        @Override
        public String toString() {
            return "Opaque(password=" + this.password + ")";
        }

    }

}
