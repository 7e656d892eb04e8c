package dev.resilience.benchmarks;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

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
 * benchmark, which {@link #checkNothingRefused()} checks at the end of each fork: both to
 * {@value #LIMIT} calls a millisecond (one a nanosecond), far above what two threads
 * reach. The settings change neither limiter's work per call. Ours was set to 50 ms in
 * earlier runs, because a thread descheduled between its clock reading and its
 * compare-and-set for longer than the period found the arrival time other threads had set
 * more than a burst ahead of its stale reading and was refused; it now reads the clock
 * again before it refuses, and the pipeline has become fast enough that two threads would
 * use up a limiter of one call every 50 ns. The log of a run must still be checked for
 * refusals. The floor rows are what any limiter that reads the clock costs at least on
 * this machine (one {@code System.nanoTime()} and one compare-and-set), and the rows of
 * our limiter alone split its cost from the pipeline's.
 */
@State(Scope.Benchmark)
public class RateLimiterBenchmark extends GuardSuccessPath {

    /** The permits of both limiters per period. */
    static final int LIMIT = RateLimiterConfig.MAX_LIMIT;

    /** The period of both limiters. */
    static final Duration PERIOD = Duration.ofMillis(1);

    private RateLimiter oursLimiter;

    private ResiliencePipeline ours;

    private Callable<Object> resilience4j;

    private final AtomicLong floorArrival = new AtomicLong();

    private final LongAdder floorCount = new LongAdder();

    /**
     * Builds both limiters and the decorated forms of the task.
     */
    @Setup
    public void setUp() {
        this.oursLimiter = RateLimiter.of("ours",
                RateLimiterConfig.builder().limit(LIMIT).period(PERIOD).timeout(Duration.ZERO).build(),
                TimeSource.system());
        this.ours = ResiliencePipeline.builder("ours").rateLimiter(this.oursLimiter).build();
        io.github.resilience4j.ratelimiter.RateLimiter resilience4jLimiter = io.github.resilience4j.ratelimiter.RateLimiter
            .of("r4j",
                    io.github.resilience4j.ratelimiter.RateLimiterConfig.custom()
                        .limitForPeriod(LIMIT)
                        .limitRefreshPeriod(PERIOD)
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
        long refusals = this.refused.sum() + this.oursLimiter.rejectedCalls();
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
     * What {@link #ours1Thread} adds to it is the pipeline's.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void oursLimiterAlone1Thread(Blackhole blackhole) throws Exception {
        this.oursLimiter.acquirePermission();
        blackhole.consume(this.task.call());
    }

    /**
     * Our rate limiter alone, two threads sharing it, as
     * {@link #oursLimiterAlone1Thread}.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(2)
    public void oursLimiterAlone2Threads(Blackhole blackhole) throws Exception {
        this.oursLimiter.acquirePermission();
        blackhole.consume(this.task.call());
    }

    /**
     * The floor of any rate limiter that reads the clock, one thread: one
     * {@code System.nanoTime()} and one compare-and-set of an {@link AtomicLong} moved as
     * a limiter's arrival time would be, then the task; no count, and a failed
     * compare-and-set is not tried again.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void floorClockAndCas1Thread(Blackhole blackhole) throws Exception {
        clockAndCas(blackhole);
    }

    /**
     * The floor of any rate limiter that reads the clock, two threads on one
     * {@link AtomicLong}.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(2)
    public void floorClockAndCas2Threads(Blackhole blackhole) throws Exception {
        clockAndCas(blackhole);
    }

    /**
     * {@link #floorClockAndCas1Thread} with the permit counted in a {@link LongAdder}, as
     * our limiter counts it: what the count costs.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void floorClockCasAndCount1Thread(Blackhole blackhole) throws Exception {
        clockAndCas(blackhole);
        this.floorCount.increment();
    }

    private void clockAndCas(Blackhole blackhole) throws Exception {
        long now = System.nanoTime();
        long current = this.floorArrival.get();
        blackhole.consume(this.floorArrival.compareAndSet(current, Math.max(current, now) + 1));
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
