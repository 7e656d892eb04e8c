package dev.resilience.benchmarks;

import java.time.Duration;
import java.util.concurrent.Callable;

import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.time.TimeSource;
import io.github.resilience4j.ratelimiter.RequestNotPermitted;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The cost of a call that a rate limiter lets through at once: ours, a rate limiter alone
 * in a {@link ResiliencePipeline} called through {@link ResiliencePipeline#call}, against
 * Resilience4j's (atomic) rate limiter decorating the same task, and against calling the
 * task directly. Neither waits, and each is set so that it never refuses a call of this
 * benchmark, which {@link #checkNothingRefused()} checks at the end of each fork:
 * Resilience4j's to {@value #LIMIT} calls a millisecond (one a nanosecond), ours to
 * {@value #LIMIT} calls every 50 ms (one every 50 ns, 20 million a second, above what two
 * threads reach through it here). The settings change neither limiter's work per call.
 * Ours is not set to its own highest rate (1 ms, one call a nanosecond) because it reads
 * the clock once, before its compare-and-set loop: a thread descheduled between that read
 * and its compare-and-set for longer than the period finds the arrival time another
 * thread has set since more than a burst ahead of its stale reading, and is refused. On
 * two threads on a loaded 2-core machine a few calls in a fork were refused so with
 * periods of 1 ms and 20 ms, and even 50 ms, so the log of a run must be checked for
 * refusals.
 */
@State(Scope.Benchmark)
public class RateLimiterBenchmark extends GuardSuccessPath {

    /** The permits of both limiters per period. */
    static final int LIMIT = RateLimiterConfig.MAX_LIMIT;

    /** The period of ours. */
    static final Duration OURS_PERIOD = Duration.ofMillis(50);

    /** The period of Resilience4j's. */
    static final Duration RESILIENCE4J_PERIOD = Duration.ofMillis(1);

    private RateLimiter oursLimiter;

    private RateLimiter oursAloneLimiter;

    private ResiliencePipeline ours;

    private Callable<Object> resilience4j;

    /**
     * Builds both limiters and the decorated forms of the task.
     */
    @Setup
    public void setUp() {
        this.oursLimiter = RateLimiter.of("ours",
                RateLimiterConfig.builder().limit(LIMIT).period(OURS_PERIOD).timeout(Duration.ZERO).build(),
                TimeSource.system());
        this.ours = ResiliencePipeline.builder("ours").rateLimiter(this.oursLimiter).build();
        this.oursAloneLimiter = RateLimiter.of("ours-alone",
                RateLimiterConfig.builder().limit(LIMIT).period(RESILIENCE4J_PERIOD).timeout(Duration.ZERO).build(),
                TimeSource.system());
        io.github.resilience4j.ratelimiter.RateLimiter resilience4jLimiter = io.github.resilience4j.ratelimiter.RateLimiter
            .of("r4j",
                    io.github.resilience4j.ratelimiter.RateLimiterConfig.custom()
                        .limitForPeriod(LIMIT)
                        .limitRefreshPeriod(RESILIENCE4J_PERIOD)
                        .timeoutDuration(Duration.ZERO)
                        .build());
        this.resilience4j = io.github.resilience4j.ratelimiter.RateLimiter.decorateCallable(resilience4jLimiter,
                this.task);
    }

    /**
     * Fails the trial if either limiter refused a call: the figures would then not be
     * those of the success path.
     */
    @TearDown
    public void checkNothingRefused() {
        long refusals = this.refused.sum() + this.oursLimiter.rejectedCalls() + this.oursAloneLimiter.rejectedCalls();
        if (refusals > 0) {
            throw new IllegalStateException(refusals + " calls were refused: not a success-path measurement");
        }
    }

    /**
     * The task after one {@code System.nanoTime()} read, one thread: the least a limiter
     * that reads the clock adds on this machine.
     * @param blackhole consumes the value and the time
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void clockRead1Thread(Blackhole blackhole) throws Exception {
        blackhole.consume(System.nanoTime());
        blackhole.consume(this.task.call());
    }

    /**
     * Our rate limiter alone, without a pipeline, one thread: a permit, then the task.
     * What {@link #ours1Thread} adds to it is the pipeline's. A limiter of its own, set
     * like Resilience4j's (one call a nanosecond): alone it takes a permit faster than
     * the 50 ns of the pipeline's limiter, and one thread never reads the clock before
     * another thread's compare-and-set.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void oursLimiterAlone1Thread(Blackhole blackhole) throws Exception {
        this.oursAloneLimiter.acquirePermission();
        blackhole.consume(this.task.call());
    }

    @Override
    protected Object oursCall() throws Exception {
        try {
            return this.ours.call(this.task);
        }
        catch (RateLimitedException ex) {
            this.refused.increment();
            return ex;
        }
    }

    @Override
    protected Object resilience4jCall() throws Exception {
        try {
            return this.resilience4j.call();
        }
        catch (RequestNotPermitted ex) {
            this.refused.increment();
            return ex;
        }
    }

}
