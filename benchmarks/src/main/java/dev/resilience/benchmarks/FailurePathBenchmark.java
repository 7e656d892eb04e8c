package dev.resilience.benchmarks;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.function.CheckedSupplier;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.RetryPolicy;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The cost of a call whose first attempt fails and whose retry, after a zero delay,
 * succeeds: the bookkeeping of one failed attempt and one retry in each library.
 *
 * <p>
 * Retry alone (3 attempts), without a breaker: one failure in every two attempts would
 * open a breaker with a 50% threshold, after which the benchmark would measure
 * rejections. The failure is one prebuilt exception without a stack trace (see
 * {@link FailOnce}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FailurePathBenchmark {

    private final FailOnce task = new FailOnce();

    private ResiliencePipeline ours;

    private Callable<Object> resilience4j;

    private FailsafeExecutor<Object> failsafe;

    private CheckedSupplier<Object> failsafeTask;

    /**
     * Builds every library's retry with 3 attempts and no delay.
     */
    @Setup
    public void setUp() {
        this.ours = ResiliencePipeline.builder("ours")
            .retry(RetryPolicy.builder().maxAttempts(3).backoff(Backoff.none()).build())
            .build();
        Retry retry = Retry.of("r4j", RetryConfig.custom().maxAttempts(3).waitDuration(Duration.ZERO).build());
        this.resilience4j = Retry.decorateCallable(retry, this.task);
        this.failsafe = Failsafe.with(dev.failsafe.RetryPolicy.builder().withMaxAttempts(3).build());
        this.failsafeTask = this.task::call;
    }

    /**
     * Ours through {@link ResiliencePipeline#call}.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    public void ours(Blackhole blackhole) throws Exception {
        this.task.arm();
        blackhole.consume(this.ours.call(this.task));
    }

    /**
     * Resilience4j's {@code Retry} with {@code waitDuration(Duration.ZERO)}.
     * @param blackhole consumes the value
     * @throws Exception never
     */
    @Benchmark
    public void resilience4j(Blackhole blackhole) throws Exception {
        this.task.arm();
        blackhole.consume(this.resilience4j.call());
    }

    /**
     * Failsafe's {@code RetryPolicy} with its default delay, {@code Duration.ZERO} (its
     * {@code withDelay} refuses a zero delay).
     * @param blackhole consumes the value
     */
    @Benchmark
    public void failsafe(Blackhole blackhole) {
        this.task.arm();
        blackhole.consume(this.failsafe.get(this.failsafeTask));
    }

}
