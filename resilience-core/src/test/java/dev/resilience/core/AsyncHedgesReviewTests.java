package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerListener;
import dev.resilience.core.circuitbreaker.CircuitBreakerTransition;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Review findings on the tries of asynchronous hedged attempts ({@link AsyncHedges}).
 */
class AsyncHedgesReviewTests {

    private static final ThreadLocal<Boolean> COMPLETING = ThreadLocal.withInitial(() -> false);

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final List<CompletableFuture<String>> tries = Collections.synchronizedList(new ArrayList<>());

    private final List<Runnable> queued = new ArrayList<>();

    private final List<Boolean> listenerOnCompleter = Collections.synchronizedList(new ArrayList<>());

    private CircuitBreaker openedByOneFailure() {
        CircuitBreaker breaker = CircuitBreaker.of("quotes",
                CircuitBreakerConfig.builder().slidingWindowSize(1).minimumCalls(1).failureRateThreshold(50).build(),
                this.clock);
        breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                AsyncHedgesReviewTests.this.listenerOnCompleter.add(COMPLETING.get());
            }
        });
        return breaker;
    }

    private CompletableFuture<String> stalled() {
        CompletableFuture<String> stage = new CompletableFuture<>();
        this.tries.add(stage);
        return stage;
    }

    private void failLastTryOnItsOwnThread() {
        COMPLETING.set(true);
        try {
            this.tries.get(this.tries.size() - 1).completeExceptionally(new IOException("down"));
        }
        finally {
            COMPLETING.set(false);
        }
        while (!this.queued.isEmpty()) {
            this.queued.remove(0).run();
        }
    }

    /**
     * Shows that the guards of a hedged asynchronous try hear its outcome on the thread
     * that completes the try's stage (an HTTP client's I/O thread, say), so that the
     * breaker's transition listeners (and its result predicate) run there, where an
     * unhedged attempt's outcome is handed to the executor first (AsyncSteps: the threads
     * completing the stages never run a listener).
     */
    @Test
    void theGuardsHearAHedgedTrysOutcomeOnTheExecutorNotOnTheThreadCompletingItsStage() {
        ResiliencePipeline.Builder builder = ResiliencePipeline.builder("quotes")
            .timeSource(this.clock)
            .executor(this.queued::add);

        CompletableFuture<ExecutionResult<String>> unhedged = builder.circuitBreaker(openedByOneFailure())
            .build()
            .executeAsync(CallContext.empty(), this::stalled);
        failLastTryOnItsOwnThread();
        assertThat(unhedged).isDone();
        assertThat(this.listenerOnCompleter).as("unhedged: listener ran on the completing thread")
            .containsExactly(false);
        this.listenerOnCompleter.clear();

        CompletableFuture<ExecutionResult<String>> hedged = builder.circuitBreaker(openedByOneFailure())
            .hedging(HedgingPolicy.of(Duration.ofMillis(50), 1))
            .build()
            .executeAsync(CallContext.empty(), this::stalled);
        failLastTryOnItsOwnThread();
        assertThat(hedged).isDone();
        assertThat(this.listenerOnCompleter).as("hedged: listener ran on the completing thread").containsExactly(false);
    }

    /**
     * Shows that when the executor drops the step of a hedged try's attempt timeout (a
     * shut-down executor cancelling its queue), the try's stage is never cancelled and
     * runs on after its race has ended; an unhedged attempt's stage is cancelled in that
     * case (AsyncExecution.PendingAttempt), and DESIGN 12 says the tries that do not win
     * are cancelled.
     */
    @Test
    void aTryWhoseTimeoutStepTheExecutorDropsIsStillCancelled() {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quotes")
            .timeSource(this.clock)
            .executor(this.queued::add)
            .hedging(HedgingPolicy.of(Duration.ofHours(1), 1))
            .timeLimit(Duration.ofMillis(100))
            .build();
        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(CallContext.empty(), this::stalled);

        this.clock.advance(Duration.ofMillis(100));
        assertThat(this.queued).as("the timeout's step").hasSize(1);
        ((Future<?>) this.queued.remove(0)).cancel(false);
        while (!this.queued.isEmpty()) {
            this.queued.remove(0).run();
        }

        assertThat(call).isDone();
        assertThat(this.tries).singleElement()
            .satisfies((stage) -> assertThat(stage).as("the try's stage").isCancelled());
    }

}
