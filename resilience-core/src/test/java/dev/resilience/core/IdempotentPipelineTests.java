package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.OnInProgress;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.EncodedResult;
import dev.resilience.core.idempotency.IdempotencyInProgressException;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.IdempotencyStoreException;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IdempotentPipelineTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.clock);

    private final List<IdempotencyOutcome> outcomes = new ArrayList<>();

    private ResiliencePipeline pipeline(IdempotencyPolicy policy) {
        return ResiliencePipeline.builder("payment")
            .timeSource(this.clock)
            .idempotency(policy)
            .retry(RetryPolicy.builder().maxAttempts(2).backoff(Backoff.none()).build())
            .listener(new ExecutionListener() {
                @Override
                public void onIdempotency(String name, IdempotencyOutcome outcome) {
                    IdempotentPipelineTests.this.outcomes.add(outcome);
                }
            })
            .build();
    }

    private ResiliencePipeline pipeline() {
        return pipeline(IdempotencyPolicy.of("pay", this.store));
    }

    @Test
    void secondCallWithTheSameKeyReplaysTheFirstResultWithoutRunning() {
        ResiliencePipeline pipeline = pipeline();
        AtomicInteger runs = new AtomicInteger();

        ExecutionResult<String> first = pipeline.execute(CallContext.idempotent("key-1", "order-1:100"),
                () -> "receipt-" + runs.incrementAndGet());
        ExecutionResult<String> second = pipeline.execute(CallContext.idempotent("key-1", "order-1:100"),
                () -> "receipt-" + runs.incrementAndGet());

        assertThat(runs).hasValue(1);
        assertThat(first.replayed()).isFalse();
        assertThat(second.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(second.value()).isEqualTo("receipt-1");
        assertThat(second.replayed()).isTrue();
        assertThat(second.attempts()).isZero();
        assertThat(second.metadata()).containsEntry(ExecutionResult.IDEMPOTENCY_KEY, "key-1");
        assertThat(this.outcomes).containsExactly(IdempotencyOutcome.EXECUTED, IdempotencyOutcome.REPLAYED);
    }

    @Test
    void sameKeyOfAnotherScopeRunsItsOwnCallAndIsNoMismatch() {
        ResiliencePipeline pipeline = pipeline();
        AtomicInteger runs = new AtomicInteger();

        ExecutionResult<String> alice = pipeline.execute(CallContext.idempotent("alice", "key-1", "order-1:100"),
                () -> "receipt-" + runs.incrementAndGet());
        ExecutionResult<String> mallory = pipeline.execute(CallContext.idempotent("mallory", "key-1", "order-1:100"),
                () -> "receipt-" + runs.incrementAndGet());
        ExecutionResult<String> malloryOtherPayload = pipeline.execute(
                CallContext.idempotent("mallory", "key-1", "order-1:999"), () -> "receipt-" + runs.incrementAndGet());
        ExecutionResult<String> aliceAgain = pipeline.execute(CallContext.idempotent("alice", "key-1", "order-1:100"),
                () -> "receipt-" + runs.incrementAndGet());

        assertThat(alice.value()).isEqualTo("receipt-1");
        assertThat(mallory.replayed()).isFalse();
        assertThat(mallory.value()).isEqualTo("receipt-2");
        assertThat(malloryOtherPayload.error()).isInstanceOf(IdempotencyKeyMismatchException.class);
        assertThat(aliceAgain.replayed()).isTrue();
        assertThat(aliceAgain.value()).isEqualTo("receipt-1");
        assertThat(runs).hasValue(2);
    }

    @Test
    void contextKeepsItsScopeWithAnotherListener() {
        CallContext context = CallContext.idempotent("alice", "key-1", "fp").withListener(ExecutionListener.NONE);

        assertThat(context.idempotencyScope()).isEqualTo("alice");
        assertThat(CallContext.idempotent("key-1", "fp").idempotencyScope()).isEmpty();
    }

    @Test
    void sameKeyWithAnotherFingerprintIsAMismatch() {
        ResiliencePipeline pipeline = pipeline();
        pipeline.execute(CallContext.idempotent("key-1", "order-1:100"), () -> "receipt");

        ExecutionResult<String> result = pipeline.execute(CallContext.idempotent("key-1", "order-1:999"),
                () -> "other");

        assertThat(result.status()).isEqualTo(ExecutionStatus.FAILURE);
        assertThat(result.error()).isInstanceOf(IdempotencyKeyMismatchException.class);
        assertThat(result.attempts()).isZero();
        assertThat(this.outcomes).containsExactly(IdempotencyOutcome.EXECUTED, IdempotencyOutcome.MISMATCH);
    }

    @Test
    void callWhileTheKeyIsInProgressIsRejected() {
        ResiliencePipeline pipeline = pipeline();
        List<ExecutionResult<String>> nested = new ArrayList<>();

        pipeline.execute(CallContext.idempotent("key-1", "fp"), () -> {
            nested.add(pipeline.execute(CallContext.idempotent("key-1", "fp"), () -> "second"));
            return "first";
        });

        assertThat(nested).singleElement().satisfies((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
            assertThat(result.error()).isInstanceOf(IdempotencyInProgressException.class);
            assertThat(result.attempts()).isZero();
        });
    }

    @Test
    void waitingCallReplaysTheFirstCallOnceItCompletes() {
        ResiliencePipeline waiting = pipeline(new IdempotencyPolicy("pay", this.store, Duration.ofHours(1),
                Duration.ofSeconds(10), OnInProgress.WAIT));
        String owner = ((ClaimResult.Acquired) this.store.claim(storeKey("pay", "key-1"), "fp", Duration.ofSeconds(10)))
            .ownerToken();
        this.clock.schedule(() -> this.store.complete(storeKey("pay", "key-1"), owner, "first", Duration.ofHours(1)),
                Duration.ofMillis(120));

        ExecutionResult<String> result = waiting.execute(CallContext.idempotent("key-1", "fp"), () -> "second");

        assertThat(result.value()).isEqualTo("first");
        assertThat(result.replayed()).isTrue();
        assertThat(this.clock.elapsed()).isEqualTo(Duration.ofMillis(150));
    }

    @Test
    void waitingCallGivesUpAsRejectedWhenTheLeaseOutlivesItsWait() {
        ResiliencePipeline waiting = pipeline(new IdempotencyPolicy("pay", this.store, Duration.ofHours(1),
                Duration.ofSeconds(1), OnInProgress.WAIT));
        this.store.claim(storeKey("pay", "key-1"), "fp", Duration.ofSeconds(5));

        ExecutionResult<String> result = waiting.execute(CallContext.idempotent("key-1", "fp"), () -> "second");

        assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(this.clock.elapsed()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aCallThatStartsWaitingJustBeforeTheClockWrapsWaitsItsWholeInProgressTtlAndNoLonger() {
        ResiliencePipeline waiting = ResiliencePipeline.builder("payment")
            .timeSource(new ClockNearWrap(this.clock, Duration.ofMillis(1).toNanos()))
            .idempotency(new IdempotencyPolicy("pay", this.store, Duration.ofHours(1), Duration.ofSeconds(1),
                    OnInProgress.WAIT))
            .build();
        this.store.claim(storeKey("pay", "key-1"), "fp", Duration.ofSeconds(5));

        ExecutionResult<String> result = waiting.execute(CallContext.idempotent("key-1", "fp"), () -> "second");

        assertThat(result.status()).as("status; error " + result.error()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(result.error()).isInstanceOf(IdempotencyInProgressException.class);
        assertThat(this.clock.elapsed()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void interruptWhileWaitingForAKeyInProgressEndsTheCallAtOnceAndKeepsTheFlag() {
        ResiliencePipeline waiting = pipeline(new IdempotencyPolicy("pay", this.store, Duration.ofHours(1),
                Duration.ofSeconds(10), OnInProgress.WAIT));
        this.store.claim(storeKey("pay", "key-1"), "fp", Duration.ofSeconds(10));
        try {
            Thread.currentThread().interrupt();

            ExecutionResult<String> result = waiting.execute(CallContext.idempotent("key-1", "fp"), () -> "second");

            assertThat(Thread.currentThread().isInterrupted()).isTrue();
            assertThat(result.status()).isEqualTo(ExecutionStatus.REJECTED);
            assertThat(result.error()).isInstanceOf(CallInterruptedException.class)
                .hasCauseInstanceOf(InterruptedException.class);
            assertThat(result.attempts()).isZero();
            assertThat(this.clock.elapsed()).isZero();
        }
        finally {
            Thread.interrupted();
        }
    }

    @Test
    void failedCallReleasesItsClaimSoTheKeyCanBeTriedAgain() {
        ResiliencePipeline pipeline = pipeline();

        ExecutionResult<String> failed = pipeline.execute(CallContext.idempotent("key-1", "fp"),
                FlakyAction.failing(new IOException("1"), new IOException("2")));
        ExecutionResult<String> retried = pipeline.execute(CallContext.idempotent("key-1", "fp"), () -> "paid");

        assertThat(failed.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(retried.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(retried.replayed()).isFalse();
        assertThat(retried.value()).isEqualTo("paid");
    }

    @Test
    void errorThrownByTheActionReleasesTheClaim() {
        ResiliencePipeline pipeline = pipeline();
        try {
            pipeline.execute(CallContext.idempotent("key-1", "fp"), () -> {
                throw new AssertionError("bug");
            });
        }
        catch (AssertionError expected) {
            // the error propagates as thrown
        }

        ExecutionResult<String> retried = pipeline.execute(CallContext.idempotent("key-1", "fp"), () -> "paid");

        assertThat(retried.value()).isEqualTo("paid");
        assertThat(retried.replayed()).isFalse();
    }

    @Test
    void blankOrOverlongKeysAreRefusedWithoutRunning() {
        ResiliencePipeline pipeline = pipeline();
        AtomicInteger runs = new AtomicInteger();

        for (Object key : new Object[] { null, "", "   ", "k".repeat(256) }) {
            ExecutionResult<Integer> result = pipeline.execute(
                    new CallContext("", null, List.of(), key, "fp", ExecutionListener.NONE), runs::incrementAndGet);
            assertThat(result.status()).isEqualTo(ExecutionStatus.FAILURE);
            assertThat(result.error()).isInstanceOf(IdempotencyKeyException.class);
        }
        assertThat(runs).hasValue(0);
    }

    @Test
    void unreachableStoreFailsClosedWithoutRunning() {
        AtomicInteger runs = new AtomicInteger();
        ResiliencePipeline pipeline = pipeline(IdempotencyPolicy.of("pay", new UnreachableStore()));

        ExecutionResult<Integer> result = pipeline.execute(CallContext.idempotent("key-1", "fp"),
                runs::incrementAndGet);

        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isInstanceOf(IdempotencyStoreException.class)
            .hasRootCauseMessage("connection refused");
        assertThat(runs).hasValue(0);
        assertThat(this.outcomes).containsExactly(IdempotencyOutcome.STORE_ERROR);
    }

    @Test
    void keysOfDifferentPoliciesDoNotCollide() {
        ResiliencePipeline pay = pipeline(IdempotencyPolicy.of("pay", this.store));
        ResiliencePipeline refund = pipeline(IdempotencyPolicy.of("refund", this.store));

        pay.execute(CallContext.idempotent("key-1", "fp"), () -> "paid");
        ExecutionResult<String> result = refund.execute(CallContext.idempotent("key-1", "fp"), () -> "refunded");

        assertThat(result.value()).isEqualTo("refunded");
        assertThat(result.replayed()).isFalse();
    }

    @Test
    void encodedResultIsDecodedIntoThePolicysResultType() {
        List<java.lang.reflect.Type> decodedAs = new ArrayList<>();
        IdempotencyStore encoding = new UnreachableStore() {
            @Override
            public ClaimResult claim(String key, String fingerprint, Duration lease) {
                return new ClaimResult.Completed((EncodedResult) (type) -> {
                    decodedAs.add(type);
                    return "decoded";
                });
            }
        };
        ResiliencePipeline pipeline = pipeline(IdempotencyPolicy.of("pay", encoding).withResultType(String.class));

        ExecutionResult<String> result = pipeline.execute(CallContext.idempotent("key-1", "fp"), () -> "ran");

        assertThat(result.value()).isEqualTo("decoded");
        assertThat(result.replayed()).isTrue();
        assertThat(decodedAs).containsExactly(String.class);
    }

    @Test
    void storeIsToldThePolicysResultTypeWhenItCompletesAKey() {
        List<java.lang.reflect.Type> completedAs = new ArrayList<>();
        IdempotencyStore recording = new UnreachableStore() {
            @Override
            public ClaimResult claim(String key, String fingerprint, Duration lease) {
                return new ClaimResult.Acquired("owner");
            }

            @Override
            public boolean complete(String key, String ownerToken, @Nullable Object value, java.lang.reflect.Type type,
                    Duration ttl) {
                completedAs.add(type);
                return true;
            }
        };
        java.lang.reflect.Type listOfStrings = new java.lang.reflect.ParameterizedType() {
            @Override
            public java.lang.reflect.Type[] getActualTypeArguments() {
                return new java.lang.reflect.Type[] { String.class };
            }

            @Override
            public java.lang.reflect.Type getRawType() {
                return List.class;
            }

            @Override
            public java.lang.reflect.@Nullable Type getOwnerType() {
                return null;
            }
        };
        ResiliencePipeline pipeline = pipeline(IdempotencyPolicy.of("pay", recording).withResultType(listOfStrings));

        ExecutionResult<List<String>> result = pipeline.execute(CallContext.idempotent("key-1", "fp"),
                () -> List.of("receipt"));

        assertThat(result.isSuccess()).isTrue();
        assertThat(completedAs).containsExactly(listOfStrings);
    }

    private static class UnreachableStore implements IdempotencyStore {

        @Override
        public ClaimResult claim(String key, String fingerprint, Duration lease) {
            throw new IllegalStateException("connection refused");
        }

        @Override
        public boolean complete(String key, String ownerToken, @Nullable Object value, Duration ttl) {
            throw new IllegalStateException("connection refused");
        }

        @Override
        public boolean release(String key, String ownerToken) {
            throw new IllegalStateException("connection refused");
        }

    }

    /** The store key of an unscoped caller's key, as the pipeline writes it. */
    private static String storeKey(String name, String key) {
        return IdempotencyPolicy.of(name, new InMemoryIdempotencyStore(TimeSource.system())).storeKey("", key);
    }

}
