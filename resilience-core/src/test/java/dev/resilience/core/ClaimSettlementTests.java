package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.OnInProgress;
import dev.resilience.core.idempotency.IdempotencyInProgressException;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.IdempotencyStoreException;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call whose result the store fails to take keeps its value, and the completion is
 * tried again with a growing wait until it lands or the lease ends.
 */
class ClaimSettlementTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final FailingCompletions store = new FailingCompletions(new InMemoryIdempotencyStore(this.clock));

    private final List<IdempotencyOutcome> outcomes = new ArrayList<>();

    private final AtomicInteger runs = new AtomicInteger();

    private ResiliencePipeline pipeline() {
        return ResiliencePipeline.builder("charge")
            .timeSource(this.clock)
            .idempotency(new IdempotencyPolicy("charge", this.store, Duration.ofHours(1), Duration.ofSeconds(5),
                    OnInProgress.REJECT))
            .listener(new ExecutionListener() {
                @Override
                public void onIdempotency(String name, IdempotencyOutcome outcome) {
                    ClaimSettlementTests.this.outcomes.add(outcome);
                }
            })
            .build();
    }

    private ExecutionResult<String> charge(ResiliencePipeline pipeline) {
        return pipeline.execute(CallContext.idempotent("card-1", "fp"), () -> "charge " + this.runs.incrementAndGet());
    }

    @Test
    void failedCompletionIsTriedAgainUntilItLandsAndTheKeyThenReplays() {
        ResiliencePipeline pipeline = pipeline();
        this.store.failNext(3);

        ExecutionResult<String> first = charge(pipeline);

        assertThat(first.value()).isEqualTo("charge 1");
        assertThat(this.outcomes).containsExactly(IdempotencyOutcome.EXECUTED, IdempotencyOutcome.COMPLETE_FAILED);
        assertThat(charge(pipeline).error()).isInstanceOf(IdempotencyInProgressException.class);
        this.clock.advance(Duration.ofMillis(100 + 200 + 400));
        assertThat(this.store.completions).containsExactly(Duration.ZERO, Duration.ofMillis(100),
                Duration.ofMillis(300), Duration.ofMillis(700));
        ExecutionResult<String> replay = charge(pipeline);
        assertThat(replay.replayed()).isTrue();
        assertThat(replay.value()).isEqualTo("charge 1");
        assertThat(this.runs).hasValue(1);
        assertThat(this.clock.pendingTasks()).isZero();
    }

    @Test
    void aClaimTakenJustBeforeTheClockWrapsIsStillCompletedAgainUntilItsLeaseEnds() {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("charge")
            .timeSource(new ClockNearWrap(this.clock, Duration.ofMillis(1).toNanos()))
            .executor(Runnable::run)
            .idempotency(new IdempotencyPolicy("charge", this.store, Duration.ofHours(1), Duration.ofSeconds(5),
                    OnInProgress.REJECT))
            .build();
        this.store.failNext(3);

        charge(pipeline);
        this.clock.advance(Duration.ofMillis(100 + 200 + 400));

        assertThat(this.store.completions).containsExactly(Duration.ZERO, Duration.ofMillis(100),
                Duration.ofMillis(300), Duration.ofMillis(700));
        assertThat(charge(pipeline).replayed()).isTrue();
    }

    @Test
    void completionIsNotTriedPastTheLease() {
        ResiliencePipeline pipeline = pipeline();
        this.store.failNext(Integer.MAX_VALUE);

        charge(pipeline);
        this.clock.advance(Duration.ofMinutes(1));

        assertThat(this.store.completions).last().satisfies((at) -> assertThat(at).isLessThan(Duration.ofSeconds(5)));
        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(this.outcomes).containsOnlyOnce(IdempotencyOutcome.COMPLETE_FAILED);
    }

    /**
     * A store whose completions fail a number of times, as a store that refuses writes
     * does; it records when each completion was tried.
     */
    private final class FailingCompletions extends DelegatingIdempotencyStore {

        private final List<Duration> completions = new ArrayList<>();

        private int failures;

        FailingCompletions(IdempotencyStore delegate) {
            super(delegate);
        }

        void failNext(int count) {
            this.failures = count;
        }

        @Override
        public boolean complete(String key, String ownerToken, @Nullable Object value, Duration ttl) {
            this.completions.add(ClaimSettlementTests.this.clock.elapsed());
            if (this.failures > 0) {
                this.failures--;
                throw new IdempotencyStoreException("store refuses writes");
            }
            return super.complete(key, ownerToken, value, ttl);
        }

    }

}
