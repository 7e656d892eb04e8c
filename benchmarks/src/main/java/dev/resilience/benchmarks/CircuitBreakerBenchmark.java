package dev.resilience.benchmarks;

import java.util.concurrent.TimeUnit;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.time.TimeSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * The throughput of a circuit breaker alone, shared by every benchmark thread: ask for
 * permission, then record a success with its duration taken from
 * {@link System#nanoTime()}. Ours and Resilience4j's, both with their default count
 * window of 100 calls, on one thread and on two threads contending for the same breaker.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CircuitBreakerBenchmark {

    private CircuitBreaker ours;

    private io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4j;

    /**
     * Creates both breakers, closed, with their defaults.
     */
    @Setup
    public void setUp() {
        this.ours = CircuitBreaker.of("ours", CircuitBreakerConfig.ofDefaults(), TimeSource.system());
        this.resilience4j = io.github.resilience4j.circuitbreaker.CircuitBreaker.ofDefaults("r4j");
    }

    /**
     * Ours, one thread.
     */
    @Benchmark
    @Threads(1)
    public void ours1Thread() {
        oursCall();
    }

    /**
     * Ours, two threads on one breaker.
     */
    @Benchmark
    @Threads(2)
    public void ours2Threads() {
        oursCall();
    }

    /**
     * Resilience4j, one thread.
     */
    @Benchmark
    @Threads(1)
    public void resilience4j1Thread() {
        resilience4jCall();
    }

    /**
     * Resilience4j, two threads on one breaker.
     */
    @Benchmark
    @Threads(2)
    public void resilience4j2Threads() {
        resilience4jCall();
    }

    private void oursCall() {
        CircuitBreaker.Permit permit = this.ours.acquirePermit();
        long start = System.nanoTime();
        this.ours.onSuccess(permit, System.nanoTime() - start);
    }

    private void resilience4jCall() {
        this.resilience4j.acquirePermission();
        long start = System.nanoTime();
        this.resilience4j.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }

}
