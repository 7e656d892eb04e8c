package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.idempotency.NotReplayableResult;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.core.time.TimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key completed as not replayable in the in-memory store refuses every later call, as
 * in the Redis store: the action never runs again for it until the entry expires.
 */
class NotReplayableResultTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.clock);

    private final List<IdempotencyOutcome> outcomes = new ArrayList<>();

    private final ResiliencePipeline pipeline = ResiliencePipeline.builder("payment")
        .timeSource(this.clock)
        .idempotency(IdempotencyPolicy.of("pay", this.store))
        .listener(new ExecutionListener() {
            @Override
            public void onIdempotency(String name, IdempotencyOutcome outcome) {
                NotReplayableResultTests.this.outcomes.add(outcome);
            }
        })
        .build();

    @Test
    void inMemoryKeyCompletedAsNotReplayableRejectsLaterCallsUntilItExpires() {
        ClaimResult.Acquired claim = (ClaimResult.Acquired) this.store.claim(storeKey("pay", "key-1"), "fp",
                Duration.ofMinutes(1));
        this.store.complete(storeKey("pay", "key-1"), claim.ownerToken(), new NotReplayableResult("too large"),
                Duration.ofHours(1));
        AtomicInteger runs = new AtomicInteger();

        ExecutionResult<Integer> refused = this.pipeline.execute(CallContext.idempotent("key-1", "fp"),
                runs::incrementAndGet);

        assertThat(refused.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(refused.replayed()).isFalse();
        assertThat(refused.error()).isInstanceOf(IdempotencyResultUnavailableException.class)
            .hasMessage("Idempotency key 'key-1' was completed, but its result cannot be replayed: too large");
        assertThat(runs).hasValue(0);
        assertThat(this.outcomes).containsExactly(IdempotencyOutcome.UNAVAILABLE);

        this.clock.advance(Duration.ofHours(1).plusSeconds(1));
        ExecutionResult<Integer> afterExpiry = this.pipeline.execute(CallContext.idempotent("key-1", "fp"),
                runs::incrementAndGet);

        assertThat(afterExpiry.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(runs).hasValue(1);
    }

    /** The store key of an unscoped caller's key, as the pipeline writes it. */
    private static String storeKey(String name, String key) {
        return IdempotencyPolicy.of(name, new InMemoryIdempotencyStore(TimeSource.system())).storeKey("", key);
    }

}
