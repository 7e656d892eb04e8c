package dev.resilience.benchmarks;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.function.CheckedSupplier;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.TimeSource;
import io.github.resilience4j.retry.Retry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The cost of a call that succeeds at its first attempt, through retry (3 attempts) and a
 * circuit breaker (count window of 100), in each library, against calling the task
 * directly.
 *
 * <p>
 * The task returns a field of the state, so the JIT cannot fold it, and allocates nothing
 * itself: whatever {@code gc.alloc.rate.norm} reports beyond the baseline is the
 * library's. Every decorated form is built once in {@link #setUp()}, as an application
 * would.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CoreSuccessPathBenchmark {

    private Object payload = new Object();

    private final Callable<Object> task = this::work;

    private ResiliencePipeline ours;

    private ResiliencePipeline oursWithBudget;

    private Callable<Object> resilience4j;

    private FailsafeExecutor<Object> failsafe;

    private CheckedSupplier<Object> failsafeTask;

    /**
     * Builds every library's retry and breaker with the shared settings.
     */
    @Setup
    public void setUp() {
        TimeSource time = TimeSource.system();
        RetryPolicy retry = RetryPolicy.builder().maxAttempts(3).build();
        this.ours = ResiliencePipeline.builder("ours")
            .retry(retry)
            .circuitBreaker(CircuitBreaker.of("ours", CircuitBreakerConfig.ofDefaults(), time))
            .build();
        RetryBudget budget = new RetryBudget(RetryBudget.DEFAULT_RATIO, RetryBudget.DEFAULT_MIN_RETRIES_PER_SECOND,
                RetryBudget.DEFAULT_WINDOW, time);
        this.oursWithBudget = ResiliencePipeline.builder("ours-budget")
            .retry(retry.toBuilder().budget(budget).build())
            .circuitBreaker(CircuitBreaker.of("ours-budget", CircuitBreakerConfig.ofDefaults(), time))
            .build();
        this.resilience4j = Retry
            .decorateCallable(Retry.ofDefaults("r4j"), io.github.resilience4j.circuitbreaker.CircuitBreaker
                .decorateCallable(io.github.resilience4j.circuitbreaker.CircuitBreaker.ofDefaults("r4j"), this.task));
        this.failsafe = Failsafe.with(dev.failsafe.RetryPolicy.builder().withMaxAttempts(3).build(),
                dev.failsafe.CircuitBreaker.builder().withFailureThreshold(50, 100).build());
        this.failsafeTask = this::work;
    }

    private Object work() {
        return this.payload;
    }

    /**
     * The task called directly: the floor every library adds to.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    public void baseline(Blackhole blackhole) throws Exception {
        blackhole.consume(this.task.call());
    }

    /**
     * The task called between two {@code System.nanoTime()} reads, the pair a breaker
     * needs to time a call for slow-call detection: the floor of every library here that
     * times calls.
     * @param blackhole consumes the value and the duration
     * @throws Exception never
     */
    @Benchmark
    public void clockReads(Blackhole blackhole) throws Exception {
        long start = System.nanoTime();
        blackhole.consume(this.task.call());
        blackhole.consume(System.nanoTime() - start);
    }

    /**
     * Ours through {@link ResiliencePipeline#call}: retry without budget, then the
     * breaker.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    public void ours(Blackhole blackhole) throws Exception {
        blackhole.consume(this.ours.call(this.task));
    }

    /**
     * Ours through {@link ResiliencePipeline#call} with the default retry budget, which
     * counts every call.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    public void oursWithBudget(Blackhole blackhole) throws Exception {
        blackhole.consume(this.oursWithBudget.call(this.task));
    }

    /**
     * Ours through {@link ResiliencePipeline#execute}, which builds the complete
     * {@link ExecutionResult} of the call.
     * @param blackhole consumes the result
     */
    @Benchmark
    public void oursExecute(Blackhole blackhole) {
        ExecutionResult<Object> result = this.ours.execute(this.task);
        blackhole.consume(result.value());
    }

    /**
     * Resilience4j's {@code Retry} around its {@code CircuitBreaker}, both with their
     * defaults.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    public void resilience4j(Blackhole blackhole) throws Exception {
        blackhole.consume(this.resilience4j.call());
    }

    /**
     * Failsafe's {@code RetryPolicy} around its {@code CircuitBreaker} (50 failures in
     * 100).
     * @param blackhole consumes the value
     */
    @Benchmark
    public void failsafe(Blackhole blackhole) {
        blackhole.consume(this.failsafe.get(this.failsafeTask));
    }

}
