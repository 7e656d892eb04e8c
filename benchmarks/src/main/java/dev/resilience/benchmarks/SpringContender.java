package dev.resilience.benchmarks;

import java.util.Map;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker;
import io.github.resilience4j.retry.annotation.Retry;
import io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import io.github.resilience4j.springboot.retry.autoconfigure.RetryAutoConfiguration;
import org.aopalliance.intercept.MethodInterceptor;

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
import org.springframework.resilience.annotation.EnableResilientMethods;

/**
 * The Spring applications compared by {@link SpringProxyBenchmark}: each holds one
 * {@link Worker} bean, proxied (or not) by one library's annotations. Every proxy is a
 * CGLIB class proxy, and every context is a Spring Boot application with only the
 * auto-configurations its contender needs, logging at WARN.
 */
public enum SpringContender {

    /** The bean without a proxy: the baseline. */
    PLAIN_BEAN(PlainConfiguration.class),

    /**
     * A proxy whose only advice is a {@link MethodInterceptor} that proceeds: the floor
     * of a proxy hop.
     */
    NO_OP_ADVISOR(NoOpAdvisorConfiguration.class),

    /**
     * Ours: {@code @Retryable} and {@code @CircuitGuarded} with the default settings,
     * budget included.
     */
    OURS(OursConfiguration.class),

    /** Ours with the retry budget switched off, as Resilience4j and Spring have none. */
    OURS_NO_BUDGET(OursConfiguration.class, "resilience.retry.defaults.budget.enabled=false"),

    /**
     * Resilience4j's {@code @Retry} and {@code @CircuitBreaker} through
     * resilience4j-spring-boot4.
     */
    RESILIENCE4J(Resilience4jConfiguration.class),

    /**
     * Spring Framework 7's {@code @Retryable} with {@code @EnableResilientMethods} (retry
     * only).
     */
    SPRING_RETRYABLE(SpringRetryableConfiguration.class);

    private final Class<?> configuration;

    private final String[] properties;

    SpringContender(Class<?> configuration, String... properties) {
        this.configuration = configuration;
        this.properties = properties;
    }

    /**
     * Starts this contender's application.
     * @return the running context, holding exactly one {@link Worker}
     */
    public ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(this.configuration).web(WebApplicationType.NONE)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .properties(Map.of("logging.level.root", "WARN", "spring.main.register-shutdown-hook", "false"))
            .properties(this.properties)
            .run();
    }

    /**
     * The bean called through the proxy; its subclasses differ only in their annotations.
     */
    public abstract static class Worker {

        /**
         * Returns its argument.
         * @param input any object
         * @return the same object
         */
        public Object work(Object input) {
            return input;
        }

    }

    static class PlainWorker extends Worker {

    }

    static class NoOpWorker extends Worker {

    }

    static class OursWorker extends Worker {

        @Override
        @dev.resilience.annotation.Retryable("bench")
        @CircuitGuarded("bench")
        public Object work(Object input) {
            return input;
        }

    }

    static class Resilience4jWorker extends Worker {

        @Override
        @Retry(name = "bench")
        @CircuitBreaker(name = "bench")
        public Object work(Object input) {
            return input;
        }

    }

    static class SpringRetryableWorker extends Worker {

        @Override
        @org.springframework.resilience.annotation.Retryable
        public Object work(Object input) {
            return input;
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class PlainConfiguration {

        @Bean
        PlainWorker worker() {
            return new PlainWorker();
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(AopAutoConfiguration.class)
    static class NoOpAdvisorConfiguration {

        @Bean
        NoOpWorker worker() {
            return new NoOpWorker();
        }

        @Bean
        static Advisor noOpAdvisor() {
            NameMatchMethodPointcut work = new NameMatchMethodPointcut();
            work.setMappedName("work");
            MethodInterceptor proceed = (invocation) -> invocation.proceed();
            return new DefaultPointcutAdvisor(new ComposablePointcut(new RootClassFilter(NoOpWorker.class), work),
                    proceed);
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ AopAutoConfiguration.class, ResilienceAutoConfiguration.class })
    static class OursConfiguration {

        @Bean
        OursWorker worker() {
            return new OursWorker();
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ AopAutoConfiguration.class, CircuitBreakerAutoConfiguration.class,
            RetryAutoConfiguration.class })
    static class Resilience4jConfiguration {

        @Bean
        Resilience4jWorker worker() {
            return new Resilience4jWorker();
        }

    }

    @Configuration(proxyBeanMethods = false)
    @EnableResilientMethods(proxyTargetClass = true)
    static class SpringRetryableConfiguration {

        @Bean
        SpringRetryableWorker worker() {
            return new SpringRetryableWorker();
        }

    }

}
