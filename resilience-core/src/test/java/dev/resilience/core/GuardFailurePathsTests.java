package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Review of the attempt guards: what the drivers do when a guard itself fails, when a
 * guard waits, and what the builder now refuses. Each test states the rule it holds the
 * code to (DESIGN sections 6 and 11, the Javadoc of {@link AttemptGuard}).
 */
class GuardFailurePathsTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.clock);

    /**
     * DESIGN 11, Errors: an Error of the action is rethrown as it is (sync fast path).
     */
    @Test
    void errorOfTheActionIsRethrownAsItIsWhenAGuardFailsToHearItOnTheFastPath() {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("fatal")
            .guard(ScriptedGuard.class, new ScriptedGuard(AttemptGuard.BULKHEAD).throwingOnOutcome())
            .build();
        Fatal fatal = new Fatal();

        Throwable thrown = catchThrowable(() -> pipeline.call(() -> {
            throw fatal;
        }));

        assertThat(thrown).as("the action's Error, not the guard's exception").isSameAs(fatal);
    }

    /** DESIGN 11, Errors: the same on the stateful synchronous path. */
    @Test
    void errorOfTheActionIsRethrownAsItIsWhenAGuardFailsToHearItOnTheStatefulPath() {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("fatal")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder().maxAttempts(3).maxDuration(Duration.ofSeconds(10)).build())
            .guard(ScriptedGuard.class, new ScriptedGuard(AttemptGuard.BULKHEAD).throwingOnOutcome())
            .build();
        Fatal fatal = new Fatal();

        Throwable thrown = catchThrowable(() -> pipeline.call(() -> {
            throw fatal;
        }));

        assertThat(thrown).as("the action's Error, not the guard's exception").isSameAs(fatal);
    }

    /** DESIGN 11, Errors: "sync and async alike". */
    @Test
    void errorOfAnAsyncAttemptCompletesTheFutureWithItWhenAGuardFailsToHearIt() {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("fatal")
            .timeSource(this.clock)
            .guard(ScriptedGuard.class, new ScriptedGuard(AttemptGuard.BULKHEAD).throwingOnOutcome())
            .build();
        Fatal fatal = new Fatal();

        CompletableFuture<ExecutionResult<String>> future = pipeline.executeAsync(CallContext.empty(),
                () -> CompletableFuture.failedFuture(fatal));

        assertThat(future).as("completes exceptionally with the action's Error").isCompletedExceptionally();
        assertThat(catchThrowable(future::join)).hasCause(fatal);
    }

    /**
     * DESIGN 6: "the library adds nothing to an exception it did not create (a shared or
     * cached exception must never grow)". A guard may refuse with a cached exception;
     * when a guard before it fails to take its pass back, Guards.admit adds that failure
     * to the refusal, call after call.
     */
    @Test
    void aCachedRefusalDoesNotGrowWhenAnOuterGuardFailsToTakeItsPassBack() {
        RuntimeException cachedRefusal = new IllegalStateException("full");
        ResiliencePipeline pipeline = ResiliencePipeline.builder("full")
            .guard(ScriptedGuard.class, new ScriptedGuard(AttemptGuard.RATE_LIMITER).throwingOnOutcome())
            .guard(RefusingGuard.class, new RefusingGuard(cachedRefusal))
            .build();

        for (int i = 0; i < 3; i++) {
            assertThat(pipeline.execute(() -> "ok").error()).isSameAs(cachedRefusal);
        }

        assertThat(cachedRefusal.getSuppressed()).as("suppressed exceptions added to a shared refusal").isEmpty();
    }

    /**
     * DESIGN 11: "a permit or claim taken by the call is always given back"; the future
     * completes exceptionally only with an Error (ResiliencePipeline#executeAsync). When
     * the attempt's timer is refused while the pass is held and the guard fails to take
     * the pass back, AsyncSteps.end() skips settleClaim: the key stays in progress.
     */
    @Test
    void aGuardThatFailsToTakeItsPassBackDoesNotLeaveTheIdempotencyClaimTaken() {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quote")
            .timeSource(new RejectingTimer(this.clock))
            .executor(Runnable::run)
            .idempotency(IdempotencyPolicy.of("quote", this.store))
            .retry(RetryPolicy.builder().maxAttempts(1).attemptTimeout(Duration.ofSeconds(1)).build())
            .guard(ScriptedGuard.class, new ScriptedGuard(AttemptGuard.BULKHEAD).throwingOnOutcome())
            .build();

        CompletableFuture<ExecutionResult<String>> future = pipeline.executeAsync(CallContext.idempotent("k", "fp"),
                CompletableFuture::new);

        assertThat(this.store.claim(IdempotencyPolicy.of("quote", this.store).storeKey("", "k"), "fp",
                Duration.ofSeconds(1)))
            .as("the claim was released")
            .isInstanceOf(ClaimResult.Acquired.class);
        assertThat(future).as("completes with an account, not with the guard's exception")
            .isCompletedWithValueMatching((result) -> result.status() == ExecutionStatus.ERROR);
    }

    /**
     * DESIGN 6: a call never runs past its max-duration. A guard that waits to admit (a
     * bulkhead's maxWait, a rate limiter's timeout) takes time; the synchronous driver
     * computes the attempt's limit from the deadline before asking the guards, so the
     * attempt may run past the deadline. The asynchronous driver computes it after.
     */
    @Test
    void anAttemptAdmittedAfterAGuardWaitedStillEndsAtTheDeadline() {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("slow")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder()
                .maxAttempts(2)
                .maxDuration(Duration.ofSeconds(1))
                .backoff(Backoff.of(Duration.ofMillis(10), 1.0, Duration.ofMillis(10), Jitter.NONE))
                .build())
            .guard(WaitingGuard.class, new WaitingGuard(this.clock, Duration.ofMillis(800)))
            .build();

        ExecutionResult<String> sync = pipeline.execute(() -> {
            this.clock.advance(Duration.ofMillis(500));
            return "late";
        });
        CompletableFuture<String> pending = new CompletableFuture<>();
        CompletableFuture<ExecutionResult<String>> async = pipeline.executeAsync(CallContext.empty(), () -> pending);
        this.clock.advance(Duration.ofMillis(500));
        pending.complete("late");

        assertThat(async.join().status()).as("async").isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(sync.status()).as("sync, which ended 1.3s after its start with a 1s max-duration")
            .isEqualTo(ExecutionStatus.TIMEOUT);
    }

    /**
     * Before this change {@code circuitBreaker(null)} left a pipeline without a breaker,
     * as {@code retry(null)}, {@code idempotency(null)} and {@code fallbacks} still do;
     * it now throws, and a reused builder can no longer drop its breaker.
     */
    @Test
    void aBuilderCanStillDropItsBreaker() {
        CircuitBreaker breaker = CircuitBreaker.of("b", CircuitBreakerConfig.ofDefaults(), this.clock);
        ResiliencePipeline.Builder builder = ResiliencePipeline.builder("reuse")
            .timeSource(this.clock)
            .circuitBreaker(breaker);

        assertThatCode(() -> builder.circuitBreaker(null)).doesNotThrowAnyException();
        assertThat(builder.build().circuitBreaker()).isNull();
    }

    private static final class Fatal extends Error {

        Fatal() {
            super("fatal");
        }

    }

    /** Admits every attempt; may fail to hear outcomes and to take passes back. */
    private static final class ScriptedGuard implements AttemptGuard<String> {

        private final int order;

        private boolean throwsOnOutcome;

        final List<String> heard = new ArrayList<>();

        ScriptedGuard(int order) {
            this.order = order;
        }

        ScriptedGuard throwingOnOutcome() {
            this.throwsOnOutcome = true;
            return this;
        }

        @Override
        public int order() {
            return this.order;
        }

        @Override
        public String admit() {
            return "pass";
        }

        @Override
        public void succeeded(String pass, long durationNanos) {
            hear("succeeded");
        }

        @Override
        public void failed(String pass, long durationNanos, Throwable failure) {
            hear("failed");
        }

        @Override
        public void abandoned(String pass) {
            hear("abandoned");
        }

        private void hear(String event) {
            this.heard.add(event);
            if (this.throwsOnOutcome) {
                throw new IllegalStateException("guard broke on " + event);
            }
        }

    }

    /** Refuses every attempt with one cached exception, as a hot-path limiter may. */
    private static final class RefusingGuard implements AttemptGuard<String> {

        private final RuntimeException refusal;

        RefusingGuard(RuntimeException refusal) {
            this.refusal = refusal;
        }

        @Override
        public int order() {
            return BULKHEAD;
        }

        @Override
        public String admit() {
            throw this.refusal;
        }

        @Override
        public void succeeded(String pass, long durationNanos) {
        }

        @Override
        public void failed(String pass, long durationNanos, Throwable failure) {
        }

        @Override
        public void abandoned(String pass) {
        }

    }

    /** Waits on the time source before admitting, as a bulkhead with a maxWait does. */
    private static final class WaitingGuard implements AttemptGuard<String> {

        private final TimeSource time;

        private final Duration wait;

        WaitingGuard(TimeSource time, Duration wait) {
            this.time = time;
            this.wait = wait;
        }

        @Override
        public int order() {
            return BULKHEAD;
        }

        @Override
        public String admit() {
            try {
                this.time.sleep(this.wait);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
            return "pass";
        }

        @Override
        public void succeeded(String pass, long durationNanos) {
        }

        @Override
        public void failed(String pass, long durationNanos, Throwable failure) {
        }

        @Override
        public void abandoned(String pass) {
        }

    }

}
