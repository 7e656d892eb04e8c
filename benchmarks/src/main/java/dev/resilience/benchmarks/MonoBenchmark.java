package dev.resilience.benchmarks;

import java.util.concurrent.TimeUnit;

import dev.resilience.benchmarks.MonoApplication.MonoWorker;
import dev.resilience.benchmarks.MonoApplication.NoOpWorker;
import dev.resilience.benchmarks.MonoApplication.OursNoBudgetWorker;
import dev.resilience.benchmarks.MonoApplication.OursWorker;
import dev.resilience.benchmarks.MonoApplication.PlainWorker;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import io.github.resilience4j.reactor.retry.RetryOperator;
import io.github.resilience4j.retry.Retry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import reactor.core.publisher.Mono;

import org.springframework.aop.support.AopUtils;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The cost of a {@code Mono} call that succeeds at its first attempt, through retry and a
 * circuit breaker: ours, the annotated bean method called through its Spring proxy, as an
 * application calls it, against resilience4j-reactor's {@code RetryOperator} around its
 * {@code CircuitBreakerOperator} on the same {@code Mono} of the bean without a proxy,
 * and against that {@code Mono} alone. Each operation calls the bean method, which
 * assembles a {@code Mono.fromCallable} (a cold {@code Mono} whose work runs at each
 * subscription, as a client call's does, and the only kind that retry by resubscription
 * can redo), subscribes to it with a {@link ValueTaker} and takes its value; every
 * contender signals on the subscribing thread. The proxy hop is measured on its own,
 * through a proxy whose only advice proceeds, as ours pays it and Resilience4j's
 * operators, applied in code, do not. One application (started once per trial, so in each
 * fork) holds every bean; the Resilience4j operators and instances, both
 * {@code ofDefaults}, are built once too.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MonoBenchmark {

    private final Object input = new Object();

    private ConfigurableApplicationContext context;

    private MonoWorker plain;

    private MonoWorker noOpProxy;

    private MonoWorker ours;

    private MonoWorker oursNoBudget;

    private CircuitBreaker resilience4jBreaker;

    private CircuitBreakerOperator<Object> breakerOperator;

    private RetryOperator<Object> retryOperator;

    /**
     * Starts the application, checks that each bean is proxied exactly when it should be,
     * and builds Resilience4j's operators.
     */
    @Setup(Level.Trial)
    public void start() {
        this.context = MonoApplication.start();
        this.plain = proxied(PlainWorker.class, false);
        this.noOpProxy = proxied(NoOpWorker.class, true);
        this.ours = proxied(OursWorker.class, true);
        this.oursNoBudget = proxied(OursNoBudgetWorker.class, true);
        this.resilience4jBreaker = CircuitBreaker.ofDefaults("r4j");
        this.breakerOperator = CircuitBreakerOperator.of(this.resilience4jBreaker);
        this.retryOperator = RetryOperator.of(Retry.ofDefaults("r4j"));
    }

    private MonoWorker proxied(Class<? extends MonoWorker> type, boolean expected) {
        MonoWorker worker = this.context.getBean(type);
        if (AopUtils.isAopProxy(worker) != expected) {
            this.context.close();
            throw new IllegalStateException(type.getSimpleName() + " is " + (expected ? "not " : "") + "proxied");
        }
        return worker;
    }

    /**
     * Fails the trial if Resilience4j's breaker counted a failure, and closes the
     * application. Ours fail an operation that does not take the value.
     */
    @TearDown(Level.Trial)
    public void stop() {
        this.context.close();
        if (this.resilience4jBreaker.getMetrics().getNumberOfFailedCalls() != 0
                || this.resilience4jBreaker.getState() != CircuitBreaker.State.CLOSED) {
            throw new IllegalStateException("Resilience4j's breaker saw a failure: not a success-path measurement");
        }
    }

    private Object take(Mono<Object> mono) {
        ValueTaker taker = new ValueTaker();
        mono.subscribe(taker);
        return taker.value();
    }

    private Object resilience4jCall() {
        return take(this.plain.work(this.input)
            .transformDeferred(this.breakerOperator)
            .transformDeferred(this.retryOperator));
    }

    /**
     * The bean's {@code Mono} without a proxy, one thread: the baseline.
     * @return the value
     */
    @Benchmark
    @Threads(1)
    public Object baseline1Thread() {
        return take(this.plain.work(this.input));
    }

    /**
     * The bean's {@code Mono} without a proxy, two threads.
     * @return the value
     */
    @Benchmark
    @Threads(2)
    public Object baseline2Threads() {
        return take(this.plain.work(this.input));
    }

    /**
     * The bean's {@code Mono} through a proxy whose only advice proceeds, one thread.
     * @return the value
     */
    @Benchmark
    @Threads(1)
    public Object proxyHop1Thread() {
        return take(this.noOpProxy.work(this.input));
    }

    /**
     * The bean's {@code Mono} through a proxy whose only advice proceeds, two threads.
     * @return the value
     */
    @Benchmark
    @Threads(2)
    public Object proxyHop2Threads() {
        return take(this.noOpProxy.work(this.input));
    }

    /**
     * Ours, {@code @Retryable} and {@code @CircuitGuarded} with the defaults (retry
     * budget included), one thread.
     * @return the value
     */
    @Benchmark
    @Threads(1)
    public Object ours1Thread() {
        return take(this.ours.work(this.input));
    }

    /**
     * Ours with the defaults, two threads sharing the breaker and the budget.
     * @return the value
     */
    @Benchmark
    @Threads(2)
    public Object ours2Threads() {
        return take(this.ours.work(this.input));
    }

    /**
     * Ours without the retry budget, one thread.
     * @return the value
     */
    @Benchmark
    @Threads(1)
    public Object oursNoBudget1Thread() {
        return take(this.oursNoBudget.work(this.input));
    }

    /**
     * Ours without the retry budget, two threads sharing the breaker.
     * @return the value
     */
    @Benchmark
    @Threads(2)
    public Object oursNoBudget2Threads() {
        return take(this.oursNoBudget.work(this.input));
    }

    /**
     * Resilience4j's {@code RetryOperator} around its {@code CircuitBreakerOperator},
     * each applied with {@code transformDeferred} as its documentation shows, one thread.
     * @return the value
     */
    @Benchmark
    @Threads(1)
    public Object resilience4j1Thread() {
        return resilience4jCall();
    }

    /**
     * Resilience4j's operators, two threads sharing the breaker and the retry.
     * @return the value
     */
    @Benchmark
    @Threads(2)
    public Object resilience4j2Threads() {
        return resilience4jCall();
    }

}
