package dev.resilience.benchmarks;

import java.util.Map;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import org.aopalliance.intercept.MethodInterceptor;
import reactor.core.publisher.Mono;

import org.springframework.aop.Advisor;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.NameMatchMethodPointcut;
import org.springframework.aop.support.RootClassFilter;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Spring Boot application of {@link MonoBenchmark}: one {@link MonoWorker} bean per
 * way of calling it, each a CGLIB class proxy (or none), with our auto-configuration,
 * default settings and logging at WARN. The retry instance {@value #NO_BUDGET} has its
 * retry budget switched off, as Resilience4j has none.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ AopAutoConfiguration.class, ResilienceAutoConfiguration.class })
public class MonoApplication {

    /** The retry and breaker instance of {@link OursNoBudgetWorker}. */
    static final String NO_BUDGET = "mono-no-budget";

    /**
     * Starts the application.
     * @return the running context
     */
    public static ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(MonoApplication.class).web(WebApplicationType.NONE)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .properties(Map.of("logging.level.root", "WARN", "spring.main.register-shutdown-hook", "false",
                    "resilience.retry.instances." + NO_BUDGET + ".budget.enabled", "false"))
            .run();
    }

    @Bean
    PlainWorker plainWorker() {
        return new PlainWorker();
    }

    @Bean
    NoOpWorker noOpWorker() {
        return new NoOpWorker();
    }

    @Bean
    OursWorker oursWorker() {
        return new OursWorker();
    }

    @Bean
    OursNoBudgetWorker oursNoBudgetWorker() {
        return new OursNoBudgetWorker();
    }

    @Bean
    static Advisor noOpAdvisor() {
        NameMatchMethodPointcut work = new NameMatchMethodPointcut();
        work.setMappedName("work");
        MethodInterceptor proceed = (invocation) -> invocation.proceed();
        return new DefaultPointcutAdvisor(new ComposablePointcut(new RootClassFilter(NoOpWorker.class), work), proceed);
    }

    /**
     * The bean whose method returns the {@code Mono} measured; its subclasses differ only
     * in their annotations and in the advice that proxies them.
     */
    public abstract static class MonoWorker {

        /**
         * Returns a cold {@code Mono} whose every subscription computes its value, as a
         * client call's does.
         * @param input any object
         * @return the {@code Mono} of that object
         */
        public Mono<Object> work(Object input) {
            return Mono.fromCallable(() -> input);
        }

    }

    /** Not proxied: the baseline. */
    static class PlainWorker extends MonoWorker {

    }

    /** Proxied by an advice that only proceeds: the floor of a proxy hop. */
    static class NoOpWorker extends MonoWorker {

    }

    /**
     * Ours: {@code @Retryable} and {@code @CircuitGuarded}, defaults, budget included.
     */
    static class OursWorker extends MonoWorker {

        @Override
        @Retryable("mono")
        @CircuitGuarded("mono")
        public Mono<Object> work(Object input) {
            return Mono.fromCallable(() -> input);
        }

    }

    /** Ours with the retry budget switched off. */
    static class OursNoBudgetWorker extends MonoWorker {

        @Override
        @Retryable(NO_BUDGET)
        @CircuitGuarded(NO_BUDGET)
        public Mono<Object> work(Object input) {
            return Mono.fromCallable(() -> input);
        }

    }

}
