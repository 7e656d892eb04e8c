package dev.resilience.benchmarks;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.bulkhead.BulkheadType;
import dev.resilience.core.time.TimeSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The cost of a call that a bulkhead lets through at once: ours, a fixed bulkhead alone
 * in a {@link ResiliencePipeline} called through {@link ResiliencePipeline#call}, against
 * Resilience4j's semaphore bulkhead decorating the same task, and against calling the
 * task directly. Both bulkheads allow {@value #MAX_CONCURRENT_CALLS} concurrent calls and
 * do not wait, far more than the one or two benchmark threads sharing them, so no call is
 * ever refused; {@link #checkNothingRefused()} fails the run if one was.
 *
 * <p>
 * The task returns a field of the state and allocates nothing itself: whatever
 * {@code gc.alloc.rate.norm} reports beyond the baseline is the library's.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BulkheadBenchmark {

    /** The limit of both bulkheads. */
    static final int MAX_CONCURRENT_CALLS = 25;

    private Object payload = new Object();

    private final Callable<Object> task = this::work;

    private final LongAdder refused = new LongAdder();

    private Bulkhead oursBulkhead;

    private ResiliencePipeline ours;

    private io.github.resilience4j.bulkhead.Bulkhead resilience4jBulkhead;

    private Callable<Object> resilience4j;

    /**
     * Builds both bulkheads and the decorated forms of the task.
     */
    @Setup
    public void setUp() {
        this.oursBulkhead = Bulkhead.of("ours",
                BulkheadConfig.builder()
                    .type(BulkheadType.FIXED)
                    .maxConcurrentCalls(MAX_CONCURRENT_CALLS)
                    .maxWait(Duration.ZERO)
                    .build(),
                TimeSource.system());
        this.ours = ResiliencePipeline.builder("ours").bulkhead(this.oursBulkhead).build();
        this.resilience4jBulkhead = io.github.resilience4j.bulkhead.Bulkhead.of("r4j",
                io.github.resilience4j.bulkhead.BulkheadConfig.custom()
                    .maxConcurrentCalls(MAX_CONCURRENT_CALLS)
                    .maxWaitDuration(Duration.ZERO)
                    .build());
        this.resilience4j = io.github.resilience4j.bulkhead.Bulkhead.decorateCallable(this.resilience4jBulkhead,
                this.task);
    }

    /**
     * Fails the trial if either bulkhead refused a call, or if the ones measured let
     * nothing through: the figures would then not be those of the success path.
     */
    @TearDown
    public void checkNothingRefused() {
        long refusals = this.refused.sum() + this.oursBulkhead.rejectedCalls();
        if (refusals > 0) {
            throw new IllegalStateException(refusals + " calls were refused: not a success-path measurement");
        }
        if (this.oursBulkhead.concurrentCalls() != 0
                || this.resilience4jBulkhead.getMetrics().getAvailableConcurrentCalls() != MAX_CONCURRENT_CALLS) {
            throw new IllegalStateException("A bulkhead kept a permit after the run");
        }
    }

    private Object work() {
        return this.payload;
    }

    /**
     * The task called directly, one thread.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void baseline1Thread(Blackhole blackhole) throws Exception {
        blackhole.consume(this.task.call());
    }

    /**
     * The task called directly, two threads.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(2)
    public void baseline2Threads(Blackhole blackhole) throws Exception {
        blackhole.consume(this.task.call());
    }

    /**
     * The task between two {@code System.nanoTime()} reads, one thread: the price of
     * timing a call on this machine.
     * @param blackhole consumes the value and the duration
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void clockReads1Thread(Blackhole blackhole) throws Exception {
        long start = System.nanoTime();
        blackhole.consume(this.task.call());
        blackhole.consume(System.nanoTime() - start);
    }

    /**
     * Ours, one thread.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void ours1Thread(Blackhole blackhole) throws Exception {
        blackhole.consume(oursCall());
    }

    /**
     * Ours, two threads sharing one bulkhead.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(2)
    public void ours2Threads(Blackhole blackhole) throws Exception {
        blackhole.consume(oursCall());
    }

    /**
     * Our bulkhead alone, without a pipeline, one thread: a permit, the task, the permit
     * handed back as a success with no duration. What {@link #ours1Thread} adds to it is
     * the pipeline's.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void oursBulkheadAlone1Thread(Blackhole blackhole) throws Exception {
        Bulkhead.Permit permit = this.oursBulkhead.acquire();
        blackhole.consume(this.task.call());
        this.oursBulkhead.onSuccess(permit, 0);
    }

    /**
     * Resilience4j, one thread.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void resilience4j1Thread(Blackhole blackhole) throws Exception {
        blackhole.consume(resilience4jCall());
    }

    /**
     * Resilience4j, two threads sharing one bulkhead.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(2)
    public void resilience4j2Threads(Blackhole blackhole) throws Exception {
        blackhole.consume(resilience4jCall());
    }

    private Object oursCall() throws Exception {
        try {
            return this.ours.call(this.task);
        }
        catch (BulkheadFullException ex) {
            this.refused.increment();
            return ex;
        }
    }

    private Object resilience4jCall() throws Exception {
        try {
            return this.resilience4j.call();
        }
        catch (io.github.resilience4j.bulkhead.BulkheadFullException ex) {
            this.refused.increment();
            return ex;
        }
    }

}
