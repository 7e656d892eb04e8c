package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.lastgood.InMemoryLastGoodStore;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an idempotent call that a fallback answered leaves under its key: a fallback
 * method's value is the call's answer (it may have done the work another way, as a backup
 * gateway does) and completes the key; a last good value is a stale copy of another
 * call's answer, so the key is released and the client's retry under it runs the method.
 */
class IdempotentFallbackTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.clock);

    private final AtomicInteger runs = new AtomicInteger();

    private final AtomicBoolean down = new AtomicBoolean();

    @Test
    void retryUnderTheKeyOfACallServedALastGoodValueRunsTheMethod() {
        ResiliencePipeline pipeline = builder()
            .lastGood(new LastGood(new InMemoryLastGoodStore(10, this.clock), Duration.ofHours(1), String.class,
                    (call) -> "order-1", List.of(), List.of()))
            .build();
        assertThat(pay(pipeline, "key-0").value()).isEqualTo("receipt-1");
        this.down.set(true);

        ExecutionResult<String> stale = pay(pipeline, "key-1");
        this.down.set(false);
        ExecutionResult<String> retried = pay(pipeline, "key-1");
        ExecutionResult<String> replayed = pay(pipeline, "key-1");

        assertThat(stale.value()).isEqualTo("receipt-1");
        assertThat(stale.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, LastGood.FALLBACK_NAME);
        assertThat(retried.replayed()).as("another call's stale receipt was stored as this key's").isFalse();
        assertThat(retried.value()).isEqualTo("receipt-4");
        assertThat(replayed.replayed()).isTrue();
        assertThat(replayed.value()).isEqualTo("receipt-4");
        assertThat(this.runs).hasValue(4);
    }

    @Test
    void fallbackMethodsValueCompletesTheKeyAndIsReplayed() {
        ResiliencePipeline pipeline = builder()
            .fallbacks(FallbackChain.of(FallbackHandler.of("payWithBackup", (error, call) -> "backup-receipt")))
            .build();
        this.down.set(true);

        ExecutionResult<String> first = pay(pipeline, "key-1");
        this.down.set(false);
        ExecutionResult<String> retried = pay(pipeline, "key-1");

        assertThat(first.value()).isEqualTo("backup-receipt");
        assertThat(retried.replayed()).isTrue();
        assertThat(retried.value()).isEqualTo("backup-receipt");
        assertThat(this.runs).as("the backup charged; the primary is not charged again").hasValue(2);
    }

    private ResiliencePipeline.Builder builder() {
        return ResiliencePipeline.builder("payment")
            .timeSource(this.clock)
            .idempotency(IdempotencyPolicy.of("pay", this.store))
            .retry(RetryPolicy.builder().maxAttempts(2).backoff(Backoff.none()).build());
    }

    private ExecutionResult<String> pay(ResiliencePipeline pipeline, String key) {
        return pipeline.execute(CallContext.idempotent(key, "order-1:100"), () -> {
            int run = this.runs.incrementAndGet();
            if (this.down.get()) {
                throw new IOException("gateway down");
            }
            return "receipt-" + run;
        });
    }

}
