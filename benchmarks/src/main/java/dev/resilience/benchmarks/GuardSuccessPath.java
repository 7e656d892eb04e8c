package dev.resilience.benchmarks;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The contenders every guard benchmark measures on its success path, on one thread and on
 * two sharing the guard: the task called directly, ours and Resilience4j's. A subclass
 * builds the two guards and calls the task through each, counting a refusal in
 * {@link #refused} rather than throwing it.
 *
 * <p>
 * The task returns a field of the state and allocates nothing itself: whatever
 * {@code gc.alloc.rate.norm} reports beyond the baseline is the library's.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public abstract class GuardSuccessPath {

    private final Object payload = new Object();

    /** The task every contender calls. */
    protected final Callable<Object> task = this::work;

    /** The calls a guard refused, which fail the trial. */
    protected final LongAdder refused = new LongAdder();

    private Object work() {
        return this.payload;
    }

    /**
     * Calls the task through our guard.
     * @return its value, or the refusal
     * @throws Exception never
     */
    protected abstract Object oursCall() throws Exception;

    /**
     * Calls the task through Resilience4j's guard.
     * @return its value, or the refusal
     * @throws Exception never
     */
    protected abstract Object resilience4jCall() throws Exception;

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
     * Ours, two threads sharing one guard.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(2)
    public void ours2Threads(Blackhole blackhole) throws Exception {
        blackhole.consume(oursCall());
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
     * Resilience4j, two threads sharing one guard.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    @Threads(2)
    public void resilience4j2Threads(Blackhole blackhole) throws Exception {
        blackhole.consume(resilience4jCall());
    }

}
