package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three guards in one pipeline, end to end, in the order of DESIGN section 12: the
 * rate limiter admits an attempt first, then the breaker, then the bulkhead; outcomes are
 * heard innermost first; a refusal by an inner guard gives the outer guards' passes back:
 * the breaker's permit (a half-open breaker keeps its probe), but not the rate limiter's,
 * which limits a rate: the attempt did arrive. Sync and async alike.
 */
class GuardOrderPipelineTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final List<String> log = Collections.synchronizedList(new ArrayList<>());

    private final RateLimiter limiter = RateLimiter.of("orders",
            RateLimiterConfig.builder().limit(5).period(Duration.ofSeconds(1)).timeout(Duration.ofMillis(500)).build(),
            this.clock);

    private final CircuitBreaker breaker = CircuitBreaker.of("orders",
            CircuitBreakerConfig.builder()
                .slidingWindowSize(1)
                .minimumCalls(1)
                .halfOpenCalls(1)
                .waitInOpen(Duration.ofSeconds(10))
                .build(),
            this.clock);

    private Bulkhead bulkhead(Duration maxWait) {
        return Bulkhead.of("orders", BulkheadConfig.builder().maxConcurrentCalls(1).maxWait(maxWait).build(),
                this.clock);
    }

    /**
     * The guards registered innermost first, each recording what the drivers ask of it.
     */
    private ResiliencePipeline recordedPipeline(Bulkhead bulkhead) {
        return ResiliencePipeline.builder("orders")
            .timeSource(this.clock)
            .executor(Runnable::run)
            .guard(RecordedBulkhead.class, new RecordedBulkhead(new BulkheadStage(bulkhead), this.log))
            .guard(RecordedBreaker.class, new RecordedBreaker(new BreakerStage(this.breaker), this.log))
            .guard(RecordedRateLimiter.class, new RecordedRateLimiter(new RateLimiterStage(this.limiter), this.log))
            .build();
    }

    private static ExecutionResult<String> run(ResiliencePipeline pipeline, boolean async) {
        if (async) {
            return pipeline.<String>executeAsync(CallContext.empty(), () -> CompletableFuture.completedFuture("ok"))
                .join();
        }
        return pipeline.execute(() -> "ok");
    }

    private void open() {
        this.breaker.onError(this.breaker.acquirePermit(), 0, new IllegalStateException("down"));
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

    private void halfOpen() {
        open();
        this.clock.advance(Duration.ofSeconds(10));
    }

    @ParameterizedTest(name = "async={0}")
    @ValueSource(booleans = { false, true })
    void guardsAdmitRateLimiterBreakerBulkheadAndHearTheOutcomeInnermostFirst(boolean async) {
        ExecutionResult<String> result = run(recordedPipeline(bulkhead(Duration.ZERO)), async);

        assertThat(result.value()).isEqualTo("ok");
        assertThat(this.log).containsExactly("admit rate limiter", "admit breaker", "admit bulkhead",
                "succeeded bulkhead", "succeeded breaker", "succeeded rate limiter");
    }

    @ParameterizedTest(name = "async={0}")
    @ValueSource(booleans = { false, true })
    void aBulkheadRefusalGivesTheBreakerItsProbeBackButTheRateLimitersPermitStaysSpent(boolean async) throws Exception {
        Bulkhead bulkhead = bulkhead(Duration.ZERO);
        Bulkhead.Permit held = bulkhead.acquire();
        halfOpen();
        ResiliencePipeline pipeline = recordedPipeline(bulkhead);

        ExecutionResult<String> refused = run(pipeline, async);

        assertThat(refused.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(refused.error()).isInstanceOf(BulkheadFullException.class);
        assertThat(this.log).containsExactly("admit rate limiter", "admit breaker", "admit bulkhead",
                "abandoned breaker", "abandoned rate limiter");
        assertThat(this.limiter.availablePermits()).as("a rate: the permit is not given back").isEqualTo(4);
        assertThat(this.breaker.metrics().notPermittedCallsTotal()).isZero();
        assertThat(this.breaker.metrics().failedCallsTotal())
            .as("not counted by the breaker: only the failure that opened it")
            .isEqualTo(1);
        bulkhead.release(held);
        assertThat(run(pipeline, async).value()).as("the half-open breaker's probe was given back").isEqualTo("ok");
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(this.limiter.availablePermits()).isEqualTo(3);
    }

    @ParameterizedTest(name = "async={0}")
    @ValueSource(booleans = { false, true })
    void aBreakerRefusalSpendsTheRateLimitersPermitAndNeverAsksTheBulkhead(boolean async) {
        Bulkhead bulkhead = bulkhead(Duration.ZERO);
        open();

        ExecutionResult<String> refused = run(recordedPipeline(bulkhead), async);

        assertThat(refused.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(refused.error()).isInstanceOf(CallNotPermittedException.class);
        assertThat(this.log).containsExactly("admit rate limiter", "admit breaker", "abandoned rate limiter");
        assertThat(this.limiter.availablePermits()).isEqualTo(4);
        assertThat(bulkhead.permittedCalls() + bulkhead.rejectedCalls()).isZero();
    }

    @ParameterizedTest(name = "async={0}")
    @ValueSource(booleans = { false, true })
    void theBuildersSettersPlaceTheGuardsInTheDesignsOrderWhateverTheOrderTheyAreGivenIn(boolean async)
            throws Exception {
        Bulkhead bulkhead = bulkhead(Duration.ZERO);
        Bulkhead.Permit held = bulkhead.acquire();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("orders")
            .timeSource(this.clock)
            .executor(Runnable::run)
            .bulkhead(bulkhead)
            .circuitBreaker(this.breaker)
            .rateLimiter(this.limiter)
            .build();

        assertThat(run(pipeline, async).error()).isInstanceOf(BulkheadFullException.class);
        assertThat(this.limiter.availablePermits()).as("asked before the bulkhead").isEqualTo(4);
        bulkhead.release(held);
        open();
        assertThat(run(pipeline, async).error()).isInstanceOf(CallNotPermittedException.class);
        assertThat(bulkhead.permittedCalls()).as("the breaker is asked before the bulkhead: only the permit held above")
            .isEqualTo(1);
        assertThat(this.limiter.availablePermits()).as("and after the rate limiter").isEqualTo(3);
    }

    @ParameterizedTest(name = "async={0}")
    @ValueSource(booleans = { false, true })
    void theRateLimitersWaitIsNoPartOfTheAttemptsTimeThatTheBreakerJudges(boolean async) throws Exception {
        CircuitBreaker slowJudge = CircuitBreaker.of("orders",
                CircuitBreakerConfig.builder().slowCallDuration(Duration.ofMillis(100)).build(), this.clock);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("orders")
            .timeSource(this.clock)
            .executor(Runnable::run)
            .circuitBreaker(slowJudge)
            .rateLimiter(this.limiter)
            .build();
        for (int i = 0; i < 5; i++) {
            assertThat(this.limiter.tryAcquire()).isZero();
        }

        String value;
        if (async) {
            CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(CallContext.empty(),
                    () -> CompletableFuture.completedFuture("ok"));
            this.clock.advance(Duration.ofMillis(200));
            value = call.join().value();
        }
        else {
            value = pipeline.call(() -> "ok");
        }

        assertThat(value).isEqualTo("ok");
        assertThat(this.clock.elapsed()).as("waited for the rate limiter").isEqualTo(Duration.ofMillis(200));
        assertThat(slowJudge.metrics().successfulCallsTotal()).isEqualTo(1);
        assertThat(slowJudge.metrics().slowCallsTotal()).as("the 200ms wait is not the attempt's").isZero();
    }

    @Test
    void anAsynchronousCallAsksTheInnerGuardsOnlyWhenTheRateLimitersPermitComesAndGivesBackOnTheBulkheadsTimer()
            throws Exception {
        halfOpen();
        for (int i = 0; i < 5; i++) {
            assertThat(this.limiter.tryAcquire()).isZero();
        }
        Bulkhead bulkhead = bulkhead(Duration.ofSeconds(1));
        Bulkhead.Permit held = bulkhead.acquire();

        CompletableFuture<ExecutionResult<String>> call = recordedPipeline(bulkhead).executeAsync(CallContext.empty(),
                () -> CompletableFuture.completedFuture("never"));
        assertThat(this.log).containsExactly("admit rate limiter");
        this.clock.advance(Duration.ofMillis(200));
        assertThat(this.log).containsExactly("admit rate limiter", "admit breaker", "admit bulkhead");
        assertThat(bulkhead.waitingCalls()).isEqualTo(1);
        this.clock.advance(Duration.ofSeconds(1));

        ExecutionResult<String> refused = call.join();
        assertThat(refused.status()).isEqualTo(ExecutionStatus.REJECTED);
        assertThat(refused.error()).isInstanceOf(BulkheadFullException.class);
        assertThat(this.log).containsExactly("admit rate limiter", "admit breaker", "admit bulkhead",
                "abandoned breaker", "abandoned rate limiter");
        bulkhead.release(held);
        assertThat(this.breaker.wouldPermitCall()).as("the probe was given back").isTrue();
    }

    /**
     * A guard that records what the drivers ask of it, then does what the guard it wraps
     * does; the future of an asynchronous admission is the wrapped guard's own, so that a
     * cancellation reaches it.
     */
    abstract static class Recording<P> implements AttemptGuard<P> {

        private final String name;

        private final AttemptGuard<P> guard;

        private final List<String> log;

        Recording(String name, AttemptGuard<P> guard, List<String> log) {
            this.name = name;
            this.guard = guard;
            this.log = log;
        }

        @Override
        public int order() {
            return this.guard.order();
        }

        @Override
        public P admit() {
            this.log.add("admit " + this.name);
            return this.guard.admit();
        }

        @Override
        public CompletableFuture<P> admitAsync() {
            this.log.add("admit " + this.name);
            return this.guard.admitAsync();
        }

        @Override
        public void succeeded(P pass, long durationNanos) {
            this.log.add("succeeded " + this.name);
            this.guard.succeeded(pass, durationNanos);
        }

        @Override
        public void succeeded(P pass, long durationNanos, Object value) {
            this.log.add("succeeded " + this.name);
            this.guard.succeeded(pass, durationNanos, value);
        }

        @Override
        public void failed(P pass, long durationNanos, Throwable failure) {
            this.log.add("failed " + this.name);
            this.guard.failed(pass, durationNanos, failure);
        }

        @Override
        public void abandoned(P pass) {
            this.log.add("abandoned " + this.name);
            this.guard.abandoned(pass);
        }

    }

    static final class RecordedRateLimiter extends Recording<Void> {

        RecordedRateLimiter(RateLimiterStage stage, List<String> log) {
            super("rate limiter", stage, log);
        }

    }

    static final class RecordedBreaker extends Recording<CircuitBreaker.Permit> {

        RecordedBreaker(BreakerStage stage, List<String> log) {
            super("breaker", stage, log);
        }

    }

    static final class RecordedBulkhead extends Recording<Bulkhead.Permit> {

        RecordedBulkhead(BulkheadStage stage, List<String> log) {
            super("bulkhead", stage, log);
        }

    }

}
