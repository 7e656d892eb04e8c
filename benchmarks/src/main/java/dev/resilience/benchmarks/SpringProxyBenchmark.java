package dev.resilience.benchmarks;

import java.util.concurrent.TimeUnit;

import dev.resilience.benchmarks.SpringContender.Worker;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import org.springframework.aop.support.AopUtils;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The cost of a successful call to a bean method through each library's Spring proxy,
 * against the plain bean and a proxy whose only advice does nothing. One Spring Boot
 * application per {@link SpringContender}, started once per trial (so in its own JVM
 * fork).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SpringProxyBenchmark {

    /** The application under measurement. */
    @Param
    public SpringContender contender;

    private final Object input = new Object();

    private ConfigurableApplicationContext context;

    private Worker worker;

    /**
     * Starts the contender's application and checks that its bean is proxied exactly when
     * it should be, so no contender is measured without its advice.
     */
    @Setup(Level.Trial)
    public void start() {
        this.context = this.contender.start();
        this.worker = this.context.getBean(Worker.class);
        boolean proxied = AopUtils.isAopProxy(this.worker);
        if (proxied != (this.contender != SpringContender.PLAIN_BEAN)) {
            this.context.close();
            throw new IllegalStateException(this.contender + ": the worker is " + (proxied ? "" : "not ") + "proxied");
        }
    }

    /**
     * Closes the application.
     */
    @TearDown(Level.Trial)
    public void stop() {
        this.context.close();
    }

    /**
     * Calls the bean method once.
     * @param blackhole consumes the value
     */
    @Benchmark
    public void call(Blackhole blackhole) {
        blackhole.consume(this.worker.work(this.input));
    }

}
