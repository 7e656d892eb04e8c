package dev.resilience.core;

import java.io.IOException;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerListener;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.circuitbreaker.CircuitBreakerTransition;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.lastgood.InMemoryLastGoodStore;
import dev.resilience.core.lastgood.LastGoodStore;
import dev.resilience.core.lastgood.LastGoodValue;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An asynchronous call reads the clock only for what needs it: a first attempt the guards
 * admit at once starts with the call, and the end of an attempt whose value ends the call
 * is the call's end, unless code other than the engine's runs in between: a store (the
 * idempotency key's completion, the last good value), a result predicate, the listeners
 * of a breaker that moves as it admits the attempt or hears its value; nor does an
 * attempt start with a call whose first step was handed to the executor, whose queue is
 * the call's time but not the attempt's. Each test counts the reads of the pipeline's
 * clock, or checks the durations the breaker and the call's account took.
 */
class AsyncExecutionClockTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final CountingReads time = new CountingReads(this.clock);

    /** Closed whatever it hears; counts attempts over 3.5 s as slow. */
    private final CircuitBreaker breaker = CircuitBreaker.of("quotes",
            CircuitBreakerConfig.builder()
                .slidingWindowSize(10)
                .minimumCalls(10)
                .slowCallDuration(Duration.ofMillis(3500))
                .build(),
            this.clock);

    private ResiliencePipeline.Builder pipeline(Executor executor) {
        return ResiliencePipeline.builder("quotes")
            .timeSource(this.time)
            .executor(executor)
            .retry(RetryPolicy.builder()
                .maxAttempts(3)
                .backoff(Backoff.of(Duration.ofMillis(100), 1.0, Duration.ofMillis(100), Jitter.NONE))
                .build())
            .circuitBreaker(this.breaker);
    }

    /** Attempts that take the given times, in order, on the virtual clock. */
    private Supplier<CompletionStage<String>> attemptsTaking(Duration... durations) {
        AtomicInteger calls = new AtomicInteger();
        return () -> {
            int attempt = calls.getAndIncrement();
            this.clock.advance(durations[attempt]);
            return (attempt < durations.length - 1) ? CompletableFuture.failedFuture(new IOException("reset"))
                    : CompletableFuture.completedFuture("quote-" + attempt);
        };
    }

    private Supplier<CompletionStage<String>> attemptTaking(Duration duration) {
        return attemptsTaking(duration);
    }

    @Test
    void aCallWhoseFirstAttemptSucceedsReadsTheClockAtItsStartAndAtTheAttemptsEndOnly() {
        ResiliencePipeline pipeline = pipeline(Runnable::run).build();
        this.time.reads.set(0);

        ExecutionResult<String> result = pipeline
            .executeAsync(CallContext.empty(), attemptTaking(Duration.ofSeconds(4)))
            .join();

        assertThat(result.value()).isEqualTo("quote-0");
        assertThat(this.time.reads).hasValue(2);
        assertThat(result.duration()).isEqualTo(Duration.ofSeconds(4));
        assertThat(this.breaker.metrics().slowCalls()).as("the attempt's 4 s heard by the breaker").isOne();
    }

    @Test
    void aRetriedAttemptStartsWhenTheGuardsAdmitItNotWhenTheCallStarted() {
        CompletableFuture<ExecutionResult<String>> call = pipeline(Runnable::run).build()
            .executeAsync(CallContext.empty(), attemptsTaking(Duration.ofSeconds(1), Duration.ofSeconds(3)));
        this.clock.advance(Duration.ofMillis(100));

        assertThat(call).isDone();
        ExecutionResult<String> result = call.join();
        assertThat(result.value()).isEqualTo("quote-1");
        assertThat(result.attempts()).isEqualTo(2);
        assertThat(result.duration()).isEqualTo(Duration.ofMillis(4100));
        assertThat(this.breaker.metrics().slowCalls()).as("3 s is not slow; 4.1 s would be").isZero();
    }

    @Test
    void aCallStartedOnTheExecutorCountsTheQueueInItsDurationButNotInItsFirstAttempts() {
        Executor slowQueue = (step) -> {
            this.clock.advance(Duration.ofSeconds(10));
            step.run();
        };

        ExecutionResult<String> result = pipeline(slowQueue).build()
            .executeAsyncOnExecutor(CallContext.empty(), attemptTaking(Duration.ofSeconds(1)))
            .join();

        assertThat(result.value()).isEqualTo("quote-0");
        assertThat(result.duration()).isEqualTo(Duration.ofSeconds(11));
        assertThat(this.breaker.metrics().slowCalls()).isZero();
        assertThat(this.breaker.metrics().bufferedCalls()).isOne();
    }

    @Test
    void theCompletionOfTheIdempotencyKeyIsPartOfTheCallsDuration() {
        IdempotencyStore slowCompletion = new SlowCompletion(new InMemoryIdempotencyStore(this.clock));
        ResiliencePipeline pipeline = pipeline(Runnable::run)
            .idempotency(IdempotencyPolicy.of("quotes", slowCompletion))
            .build();

        ExecutionResult<String> result = pipeline
            .executeAsync(CallContext.idempotent("k-1", "fp"), attemptTaking(Duration.ofSeconds(1)))
            .join();

        assertThat(result.value()).isEqualTo("quote-0");
        assertThat(result.duration()).isEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void keepingTheLastGoodValueIsPartOfTheCallsDuration() {
        LastGoodStore slowPut = new SlowPut(new InMemoryLastGoodStore(10, this.clock));
        ResiliencePipeline pipeline = pipeline(Runnable::run)
            .lastGood(
                    new LastGood(slowPut, Duration.ofHours(1), String.class, (call) -> "quotes", List.of(), List.of()))
            .build();

        ExecutionResult<String> result = pipeline
            .executeAsync(CallContext.empty(), attemptTaking(Duration.ofSeconds(1)))
            .join();

        assertThat(result.value()).isEqualTo("quote-0");
        assertThat(result.duration()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aSynchronousCallsAccountTakesTheEndOfTheAttemptWhoseValueEndedIt() {
        ResiliencePipeline pipeline = pipeline(Runnable::run).build();
        this.time.reads.set(0);

        ExecutionResult<String> result = pipeline.execute(CallContext.empty(), () -> {
            this.clock.advance(Duration.ofSeconds(2));
            return "quote";
        });

        assertThat(result.value()).isEqualTo("quote");
        assertThat(result.duration()).isEqualTo(Duration.ofSeconds(2));
        assertThat(this.time.reads).as("the call's start, the attempt's start and its end").hasValue(3);
    }

    /** Opens on one failure, counts 1 s as slow, half-open after 10 s with one probe. */
    private CircuitBreaker probingBreaker() {
        return CircuitBreaker.of("quotes",
                CircuitBreakerConfig.builder()
                    .slidingWindowSize(1)
                    .minimumCalls(1)
                    .failureRateThreshold(50)
                    .slowCallDuration(Duration.ofSeconds(1))
                    .slowCallRateThreshold(100)
                    .waitInOpen(Duration.ofSeconds(10))
                    .halfOpenCalls(1)
                    .build(),
                this.clock);
    }

    /**
     * A listener that takes some of the virtual clock when the breaker enters a state.
     */
    private CircuitBreakerListener taking(Duration time, CircuitBreakerState entered) {
        return new CircuitBreakerListener() {

            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                if (transition.to() == entered) {
                    AsyncExecutionClockTests.this.clock.advance(time);
                }
            }

        };
    }

    /**
     * Opens the breaker with a failed call, waits until it lets a probe through, and
     * sends it an asynchronous probe that returns at once.
     */
    private ExecutionResult<String> instantProbe(CircuitBreaker breaker, ResiliencePipeline.Builder builder) {
        ResiliencePipeline pipeline = builder.build();
        pipeline.execute(CallContext.empty(), () -> {
            throw new IOException("down");
        });
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        this.clock.advance(Duration.ofSeconds(10));
        return pipeline.executeAsync(CallContext.empty(), attemptTaking(Duration.ZERO)).join();
    }

    private ResiliencePipeline.Builder guardedBy(CircuitBreaker breaker) {
        return ResiliencePipeline.builder("quotes")
            .timeSource(this.time)
            .executor(Runnable::run)
            .circuitBreaker(breaker);
    }

    @Test
    void aProbeIsTimedFromItsAdmissionNotFromBeforeTheListenersOfTheBreakersMoveToHalfOpen() {
        CircuitBreaker breaker = probingBreaker();
        breaker.addListener(taking(Duration.ofSeconds(2), CircuitBreakerState.HALF_OPEN));
        ExecutionResult<String> result = instantProbe(breaker, guardedBy(breaker));

        assertThat(result.isSuccess()).isTrue();
        assertThat(breaker.state()).as("an instant probe closes the breaker").isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(breaker.metrics().slowCallsTotal()).isZero();
        assertThat(result.duration()).as("the listener's time is the call's").isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void anAttemptTimeoutCountsFromTheAttemptsAdmission() {
        CircuitBreaker breaker = probingBreaker();
        breaker.addListener(taking(Duration.ofSeconds(2), CircuitBreakerState.HALF_OPEN));
        ExecutionResult<String> result = instantProbe(breaker, guardedBy(breaker).timeLimit(Duration.ofSeconds(1)));

        assertThat(result.status()).as("an attempt that returned at once").isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
    }

    @Test
    void theListenersOfTheBreakersMoveOnHearingTheValueArePartOfTheCallsDuration() {
        CircuitBreaker breaker = probingBreaker();
        breaker.addListener(taking(Duration.ofSeconds(3), CircuitBreakerState.CLOSED));
        ExecutionResult<String> result = instantProbe(breaker, guardedBy(breaker));

        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(result.duration()).isEqualTo(Duration.ofSeconds(3));
    }

    /**
     * Judges values with predicates that take 2 s (the breaker's) and 3 s (the retry's).
     */
    private ResiliencePipeline slowlyJudging() {
        CircuitBreaker judging = CircuitBreaker.of("quotes", CircuitBreakerConfig.builder().failOnResult((value) -> {
            this.clock.advance(Duration.ofSeconds(2));
            return false;
        }).build(), this.clock);
        return guardedBy(judging).retry(RetryPolicy.builder().retryOnResult((value) -> {
            this.clock.advance(Duration.ofSeconds(3));
            return false;
        }).build()).build();
    }

    @Test
    void theResultPredicatesOfTheRetryAndTheBreakerArePartOfTheCallsDuration() {
        ExecutionResult<String> result = slowlyJudging()
            .executeAsync(CallContext.empty(), attemptTaking(Duration.ofSeconds(1)))
            .join();

        assertThat(result.duration()).isEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void theResultPredicatesArePartOfASynchronousCallsDurationToo() {
        ExecutionResult<String> result = slowlyJudging().execute(CallContext.empty(), () -> "quote");

        assertThat(result.duration()).isEqualTo(Duration.ofSeconds(5));
    }

    /** An idempotency store whose completion takes 5 s of the virtual clock. */
    private final class SlowCompletion extends DelegatingIdempotencyStore {

        SlowCompletion(IdempotencyStore store) {
            super(store);
        }

        @Override
        public boolean complete(String key, String ownerToken, @Nullable Object value, Duration ttl) {
            AsyncExecutionClockTests.this.clock.advance(Duration.ofSeconds(5));
            return super.complete(key, ownerToken, value, ttl);
        }

    }

    /** A last good store whose writes take 4 s of the virtual clock. */
    private final class SlowPut implements LastGoodStore {

        private final LastGoodStore store;

        SlowPut(LastGoodStore store) {
            this.store = store;
        }

        @Override
        public void put(String key, Object value, Type type, Instant storedAt, Duration ttl) {
            AsyncExecutionClockTests.this.clock.advance(Duration.ofSeconds(4));
            this.store.put(key, value, type, storedAt, ttl);
        }

        @Override
        public Optional<LastGoodValue> get(String key, Type type) {
            return this.store.get(key, type);
        }

    }

}
