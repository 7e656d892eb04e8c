package dev.resilience.benchmarks;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.bulkhead.BulkheadType;
import dev.resilience.core.time.TimeSource;
import org.openjdk.jmh.annotations.Benchmark;
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
 * ever refused; {@link #checkNothingRefused()} fails the run if one was. The floor rows
 * are what any bulkhead shared by threads costs at least on this machine: two atomic
 * read-modify-writes, and, for one that never lets more calls in than its limit, a
 * compare-and-set that checks the limit and an atomic decrement. The rows of our bulkhead
 * alone split its cost from the pipeline's.
 */
@State(Scope.Benchmark)
public class BulkheadBenchmark extends GuardSuccessPath {

    /** The limit of both bulkheads. */
    static final int MAX_CONCURRENT_CALLS = 25;

    private Bulkhead oursBulkhead;

    private ResiliencePipeline ours;

    private Bulkhead oursAdaptiveBulkhead;

    private ResiliencePipeline oursAdaptive;

    private io.github.resilience4j.bulkhead.Bulkhead resilience4jBulkhead;

    private Callable<Object> resilience4j;

    private final AtomicInteger floor = new AtomicInteger();

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
        this.oursAdaptiveBulkhead = Bulkhead.of("ours-adaptive",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .maxConcurrentCalls(MAX_CONCURRENT_CALLS)
                    .maxWait(Duration.ZERO)
                    .build(),
                TimeSource.system());
        this.oursAdaptive = ResiliencePipeline.builder("ours-adaptive").bulkhead(this.oursAdaptiveBulkhead).build();
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
        long refusals = this.refused.sum() + this.oursBulkhead.rejectedCalls()
                + this.oursAdaptiveBulkhead.rejectedCalls();
        if (refusals > 0) {
            throw new IllegalStateException(refusals + " calls were refused: not a success-path measurement");
        }
        if (this.oursBulkhead.concurrentCalls() != 0 || this.oursAdaptiveBulkhead.concurrentCalls() != 0
                || this.floor.get() != 0
                || this.resilience4jBulkhead.getMetrics().getAvailableConcurrentCalls() != MAX_CONCURRENT_CALLS) {
            throw new IllegalStateException("A bulkhead kept a permit after the run");
        }
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
     * The floor of any bulkhead shared by threads, one thread: the task between two
     * read-modify-writes of one {@link AtomicInteger} (a permit taken, a permit given
     * back), without the check of a limit or of waiters, nor any count.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void floorTwoAtomics1Thread(Blackhole blackhole) throws Exception {
        twoAtomics(blackhole);
    }

    /**
     * The floor of any bulkhead shared by threads, two threads on one
     * {@link AtomicInteger}.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(2)
    public void floorTwoAtomics2Threads(Blackhole blackhole) throws Exception {
        twoAtomics(blackhole);
    }

    private void twoAtomics(Blackhole blackhole) throws Exception {
        blackhole.consume(this.floor.incrementAndGet());
        blackhole.consume(this.task.call());
        this.floor.decrementAndGet();
    }

    /**
     * The floor of a correct bulkhead, one thread: a permit taken by a compare-and-set
     * that checks the limit (a plain increment could pass it), the task, the permit given
     * back by an atomic decrement; no waiters, no count.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void floorCheckedTake1Thread(Blackhole blackhole) throws Exception {
        checkedTake(blackhole);
    }

    /**
     * The floor of a correct bulkhead, two threads on one {@link AtomicInteger}.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(2)
    public void floorCheckedTake2Threads(Blackhole blackhole) throws Exception {
        checkedTake(blackhole);
    }

    private void checkedTake(Blackhole blackhole) throws Exception {
        int current = this.floor.get();
        while (current < MAX_CONCURRENT_CALLS) {
            int witness = this.floor.compareAndExchange(current, current + 1);
            if (witness == current) {
                blackhole.consume(this.task.call());
                this.floor.decrementAndGet();
                return;
            }
            current = witness;
        }
        this.refused.increment();
    }

    /**
     * An adaptive bulkhead of the same initial limit in a pipeline, one thread: its
     * permit object, the attempt timed by two clock reads for it to learn from, and the
     * lock under which it learns.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void oursAdaptive1Thread(Blackhole blackhole) throws Exception {
        blackhole.consume(this.oursAdaptive.call(this.task));
    }

    /**
     * Our bulkhead alone, without a pipeline, one thread, as the pipeline's stage takes a
     * fixed bulkhead's permit: {@link Bulkhead#enter()}, the task,
     * {@link Bulkhead#exit()}. What {@link #ours1Thread} adds to it is the pipeline's.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void oursBulkheadAlone1Thread(Blackhole blackhole) throws Exception {
        this.oursBulkhead.enter();
        blackhole.consume(this.task.call());
        this.oursBulkhead.exit();
    }

    /**
     * Our bulkhead alone, two threads sharing it, as {@link #oursBulkheadAlone1Thread}.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(2)
    public void oursBulkheadAlone2Threads(Blackhole blackhole) throws Exception {
        this.oursBulkhead.enter();
        blackhole.consume(this.task.call());
        this.oursBulkhead.exit();
    }

    /**
     * Our bulkhead alone with a {@link Bulkhead.Permit} object, one thread: a permit from
     * {@link Bulkhead#acquire()}, the task, the permit handed back as a success with no
     * duration; the allocation and the once-only check of the permit beyond
     * {@link #oursBulkheadAlone1Thread}.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(1)
    public void oursPermitAlone1Thread(Blackhole blackhole) throws Exception {
        Bulkhead.Permit permit = this.oursBulkhead.acquire();
        blackhole.consume(this.task.call());
        this.oursBulkhead.onSuccess(permit, 0);
    }

    @Override
    protected Object oursCall() throws Exception {
        try {
            return this.ours.call(this.task);
        }
        catch (BulkheadFullException ex) {
            this.refused.increment();
            return ex;
        }
    }

    @Override
    protected Object resilience4jCall() throws Exception {
        try {
            return this.resilience4j.call();
        }
        catch (io.github.resilience4j.bulkhead.BulkheadFullException ex) {
            this.refused.increment();
            return ex;
        }
    }

}
