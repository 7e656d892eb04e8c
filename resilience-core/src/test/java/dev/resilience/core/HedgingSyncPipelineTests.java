package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.hedging.HedgeEvent;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hedged synchronous attempts: the caller's thread runs the first try, the hedge timer
 * (fired by advancing the virtual clock) hands each hedge to the executor, a try is
 * stopped by interrupting its thread, and an interrupt of the caller stops every try.
 * Real threads meet on latches with generous bounds; every wait has one cause.
 */
class HedgingSyncPipelineTests {

    private static final long BOUND = 10;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final ExecutorService callers = Executors.newCachedThreadPool();

    private final ExecutorService hedges = Executors.newCachedThreadPool();

    private final CountDownLatch hedgeFinished = new CountDownLatch(1);

    private final List<HedgeEvent> events = Collections.synchronizedList(new ArrayList<>());

    private final Bulkhead bulkhead = Bulkhead.of("prices", BulkheadConfig.builder().maxConcurrentCalls(5).build(),
            this.clock);

    private final CircuitBreaker breaker = CircuitBreaker.of("prices",
            CircuitBreakerConfig.builder().slidingWindowSize(100).minimumCalls(100).build(), this.clock);

    private final AtomicInteger tries = new AtomicInteger();

    @AfterEach
    void stopThreads() {
        this.callers.shutdownNow();
        this.hedges.shutdownNow();
    }

    private ResiliencePipeline pipeline() {
        return ResiliencePipeline.builder("prices")
            .timeSource(this.clock)
            .executor((task) -> this.hedges.execute(() -> {
                try {
                    task.run();
                }
                finally {
                    this.hedgeFinished.countDown();
                }
            }))
            .hedging(HedgingPolicy.of(Duration.ofMillis(50), 1))
            .circuitBreaker(this.breaker)
            .bulkhead(this.bulkhead)
            .listener(new ExecutionListener() {
                @Override
                public void onHedge(String name, HedgeEvent event) {
                    HedgingSyncPipelineTests.this.events.add(event);
                }
            })
            .build();
    }

    @Test
    void aHedgeOutrunsAFirstTryBlockedOnTheCallersThreadWhichIsInterruptedAndLeftWithoutTheFlag() throws Exception {
        CountDownLatch firstEntered = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        AtomicBoolean firstInterrupted = new AtomicBoolean();
        ResiliencePipeline pipeline = pipeline();
        Future<String> call = this.callers.submit(() -> {
            String value = pipeline.call(() -> {
                if (this.tries.incrementAndGet() > 1) {
                    return "hedge";
                }
                firstEntered.countDown();
                try {
                    never.await();
                    return "first";
                }
                catch (InterruptedException ex) {
                    firstInterrupted.set(true);
                    throw ex;
                }
            });
            return value + (Thread.currentThread().isInterrupted() ? " (interrupted)" : "");
        });
        assertThat(firstEntered.await(BOUND, TimeUnit.SECONDS)).isTrue();

        this.clock.advance(Duration.ofMillis(50));

        assertThat(call.get(BOUND, TimeUnit.SECONDS)).isEqualTo("hedge");
        assertThat(firstInterrupted).isTrue();
        assertThat(this.events).containsExactly(new HedgeEvent(1, 1));
        assertThat(this.hedgeFinished.await(BOUND, TimeUnit.SECONDS)).isTrue();
        assertThat(this.breaker.metrics().successfulCallsTotal()).isEqualTo(1);
        assertThat(this.breaker.metrics().failedCallsTotal()).as("the interrupted loser").isZero();
        assertThat(this.bulkhead.concurrentCalls()).isZero();
        assertThat(this.bulkhead.permittedCalls()).isEqualTo(2);
    }

    @Test
    void interruptingTheCallerWhileItWaitsForTheHedgeStopsItAndEndsTheCallWithTheFlagSet() throws Exception {
        CountDownLatch firstEntered = new CountDownLatch(1);
        CountDownLatch firstMayFail = new CountDownLatch(1);
        CountDownLatch firstFailing = new CountDownLatch(1);
        CountDownLatch hedgeEntered = new CountDownLatch(1);
        AtomicBoolean hedgeInterrupted = new AtomicBoolean();
        AtomicBoolean flagAfterCall = new AtomicBoolean();
        ResiliencePipeline pipeline = pipeline();
        Future<ExecutionResult<String>> call = this.callers.submit(() -> {
            ExecutionResult<String> result = pipeline.execute(() -> {
                if (this.tries.incrementAndGet() == 1) {
                    firstEntered.countDown();
                    firstMayFail.await();
                    firstFailing.countDown();
                    throw new IOException("first");
                }
                hedgeEntered.countDown();
                try {
                    new CountDownLatch(1).await();
                    return "hedge";
                }
                catch (InterruptedException ex) {
                    hedgeInterrupted.set(true);
                    throw ex;
                }
            });
            flagAfterCall.set(Thread.currentThread().isInterrupted());
            return result;
        });
        assertThat(firstEntered.await(BOUND, TimeUnit.SECONDS)).isTrue();
        this.clock.advance(Duration.ofMillis(50));
        assertThat(hedgeEntered.await(BOUND, TimeUnit.SECONDS)).isTrue();
        firstMayFail.countDown();
        assertThat(firstFailing.await(BOUND, TimeUnit.SECONDS)).isTrue();

        this.callers.shutdownNow();

        ExecutionResult<String> result = call.get(BOUND, TimeUnit.SECONDS);
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isInstanceOf(CallInterruptedException.class);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(flagAfterCall).isTrue();
        assertThat(this.hedgeFinished.await(BOUND, TimeUnit.SECONDS)).isTrue();
        assertThat(hedgeInterrupted).isTrue();
        assertThat(this.breaker.metrics().failedCallsTotal()).as("the first try's failure only").isEqualTo(1);
        assertThat(this.bulkhead.concurrentCalls()).isZero();
        assertThat(this.events).containsExactly(new HedgeEvent(HedgeEvent.NONE, 1));
    }

    @Test
    void interruptingTheCallerInItsFirstTryEndsTheCallAtOnceAndStopsTheHedge() throws Exception {
        CountDownLatch firstEntered = new CountDownLatch(1);
        CountDownLatch hedgeEntered = new CountDownLatch(1);
        AtomicBoolean hedgeInterrupted = new AtomicBoolean();
        AtomicBoolean flagAfterCall = new AtomicBoolean();
        ResiliencePipeline pipeline = pipeline();
        Future<ExecutionResult<String>> call = this.callers.submit(() -> {
            ExecutionResult<String> result = pipeline.execute(() -> {
                if (this.tries.incrementAndGet() == 1) {
                    firstEntered.countDown();
                    new CountDownLatch(1).await();
                    return "first";
                }
                hedgeEntered.countDown();
                try {
                    new CountDownLatch(1).await();
                    return "hedge";
                }
                catch (InterruptedException ex) {
                    hedgeInterrupted.set(true);
                    throw ex;
                }
            });
            flagAfterCall.set(Thread.currentThread().isInterrupted());
            return result;
        });
        assertThat(firstEntered.await(BOUND, TimeUnit.SECONDS)).isTrue();
        this.clock.advance(Duration.ofMillis(50));
        assertThat(hedgeEntered.await(BOUND, TimeUnit.SECONDS)).isTrue();

        this.callers.shutdownNow();

        ExecutionResult<String> result = call.get(BOUND, TimeUnit.SECONDS);
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isInstanceOf(InterruptedException.class);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(flagAfterCall).isTrue();
        assertThat(this.hedgeFinished.await(BOUND, TimeUnit.SECONDS)).isTrue();
        assertThat(hedgeInterrupted).isTrue();
        assertThat(this.bulkhead.concurrentCalls()).isZero();
        assertThat(this.breaker.metrics().failedCallsTotal()).as("the interrupted first try only").isEqualTo(1);
    }

    @Test
    void aHedgeTheExecutorRefusesIsNotStartedAndTheFirstTryStillAnswers() throws Exception {
        CountDownLatch firstEntered = new CountDownLatch(1);
        CountDownLatch firstMayAnswer = new CountDownLatch(1);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("prices").timeSource(this.clock).executor((task) -> {
            throw new java.util.concurrent.RejectedExecutionException("full");
        }).hedging(HedgingPolicy.of(Duration.ofMillis(50), 1)).build();
        Future<String> call = this.callers.submit(() -> pipeline.call(() -> {
            this.tries.incrementAndGet();
            firstEntered.countDown();
            firstMayAnswer.await();
            return "first";
        }));
        assertThat(firstEntered.await(BOUND, TimeUnit.SECONDS)).isTrue();

        this.clock.advance(Duration.ofMillis(50));
        firstMayAnswer.countDown();

        assertThat(call.get(BOUND, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(this.tries).hasValue(1);
    }

    @Test
    void aFirstTryAdmittedOnlyAfterTheCallsDeadlineDoesNotStartAndTheCallTimesOut() {
        RateLimiter limiter = RateLimiter.of("prices",
                RateLimiterConfig.builder()
                    .limit(1)
                    .period(Duration.ofSeconds(2))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                this.clock);
        assertThat(limiter.tryAcquire()).isZero();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("prices")
            .timeSource(this.clock)
            .executor(this.hedges)
            .retry(RetryPolicy.builder().maxAttempts(1).maxDuration(Duration.ofSeconds(1)).build())
            .hedging(HedgingPolicy.of(Duration.ofMillis(50), 1))
            .rateLimiter(limiter)
            .bulkhead(this.bulkhead)
            .build();

        ExecutionResult<String> result = pipeline.execute(() -> "late " + this.tries.incrementAndGet());

        assertThat(this.clock.elapsed()).as("the wait for a permit").isEqualTo(Duration.ofSeconds(2));
        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.error()).isInstanceOf(DeadlineExceededException.class);
        assertThat(result.attempts()).isZero();
        assertThat(this.tries).as("tries started").hasValue(0);
        assertThat(this.bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void aValueTheRetryPolicyRejectsDoesNotWinTheRaceWhileTheHedgeRunsWhichThenWins() throws Exception {
        CountDownLatch hedgeEntered = new CountDownLatch(1);
        CountDownLatch hedgeMayAnswer = new CountDownLatch(1);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("prices")
            .timeSource(this.clock)
            .executor(this.hedges)
            .retry(RetryPolicy.builder().maxAttempts(1).retryOnResult("empty"::equals).build())
            .hedging(HedgingPolicy.of(Duration.ofMillis(50), 1))
            .circuitBreaker(this.breaker)
            .build();
        Future<ExecutionResult<String>> call = this.callers.submit(() -> pipeline.execute(() -> {
            if (this.tries.incrementAndGet() > 1) {
                hedgeEntered.countDown();
                assertThat(hedgeMayAnswer.await(BOUND, TimeUnit.SECONDS)).isTrue();
                return "full";
            }
            this.clock.advance(Duration.ofMillis(50));
            assertThat(hedgeEntered.await(BOUND, TimeUnit.SECONDS)).isTrue();
            return "empty";
        }));
        await().atMost(Duration.ofSeconds(BOUND))
            .until(() -> this.breaker.metrics().successfulCallsTotal() == 1 || call.isDone());

        hedgeMayAnswer.countDown();

        ExecutionResult<String> result = call.get(BOUND, TimeUnit.SECONDS);
        assertThat(result.value()).as("the call's value; error " + result.error()).isEqualTo("full");
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(this.tries).hasValue(2);
    }

}
