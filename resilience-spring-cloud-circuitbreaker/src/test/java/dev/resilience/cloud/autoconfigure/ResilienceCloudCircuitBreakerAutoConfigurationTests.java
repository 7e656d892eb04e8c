package dev.resilience.cloud.autoconfigure;

import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.cloud.circuitbreaker.CircuitBreakerPipelines;
import dev.resilience.cloud.circuitbreaker.ReactiveResilienceCircuitBreakerFactory;
import dev.resilience.cloud.circuitbreaker.ResilienceCircuitBreakerFactory;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.ConfigBuilder;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the Spring Cloud factories over the engine are registered, and when they back off.
 */
class ResilienceCloudCircuitBreakerAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations
        .of(ResilienceAutoConfiguration.class, ResilienceCloudCircuitBreakerAutoConfiguration.class));

    @Test
    void withSpringCloudCommonsAndReactorBothFactoriesShareOnePipelines() {
        this.runner.run((context) -> {
            assertThat(context).hasSingleBean(ResilienceCircuitBreakerFactory.class)
                .hasSingleBean(ReactiveResilienceCircuitBreakerFactory.class)
                .hasSingleBean(CircuitBreakerPipelines.class);
            assertThat(context.getBean(CircuitBreakerFactory.class))
                .isInstanceOf(ResilienceCircuitBreakerFactory.class);
        });
    }

    @Test
    void whenUserDefinesACircuitBreakerFactoryThenTheBlockingFactoryBacksOff() {
        this.runner.withUserConfiguration(OwnFactory.class).run((context) -> {
            assertThat(context).doesNotHaveBean(ResilienceCircuitBreakerFactory.class)
                .hasSingleBean(CircuitBreakerFactory.class)
                .hasSingleBean(ReactiveResilienceCircuitBreakerFactory.class);
            assertThat(context.getBean(CircuitBreakerFactory.class)).isSameAs(OwnFactory.FACTORY);
        });
    }

    @Test
    void whenUserDefinesAReactiveFactoryThenTheReactiveFactoryBacksOff() {
        this.runner.withUserConfiguration(OwnReactiveFactory.class).run((context) -> {
            assertThat(context).doesNotHaveBean(ReactiveResilienceCircuitBreakerFactory.class)
                .hasSingleBean(ReactiveCircuitBreakerFactory.class)
                .hasSingleBean(ResilienceCircuitBreakerFactory.class);
        });
    }

    @Test
    void whenSwitchedOffThenNoFactoryIsRegistered() {
        this.runner.withPropertyValues("spring.cloud.circuitbreaker.resilience.enabled=false")
            .run((context) -> assertThat(context).doesNotHaveBean(CircuitBreakerFactory.class)
                .doesNotHaveBean(ReactiveCircuitBreakerFactory.class)
                .doesNotHaveBean(CircuitBreakerPipelines.class));
    }

    @Test
    void withoutReactorOnlyTheBlockingFactoryIsRegistered() {
        this.runner.withClassLoader(new FilteredClassLoader(Mono.class))
            .run((context) -> assertThat(context).hasSingleBean(ResilienceCircuitBreakerFactory.class)
                .doesNotHaveBean(ReactiveResilienceCircuitBreakerFactory.class));
    }

    @Test
    void withoutSpringCloudCommonsNothingIsRegistered() {
        this.runner.withClassLoader(new FilteredClassLoader(CircuitBreakerFactory.class))
            .run((context) -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(CircuitBreakerPipelines.class)
                .doesNotHaveBean(ResilienceCircuitBreakerFactory.class));
    }

    @Test
    void negativeMaxIdsFailsTheStart() {
        this.runner.withPropertyValues("spring.cloud.circuitbreaker.resilience.max-ids=-1")
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("max-ids must be at least 0"));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnFactory {

        static final CircuitBreakerFactory<?, ?> FACTORY = new PassThroughFactory();

        @Bean
        CircuitBreakerFactory<?, ?> ownCircuitBreakerFactory() {
            return FACTORY;
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class OwnReactiveFactory {

        @Bean
        ReactiveCircuitBreakerFactory<?, ?> ownReactiveCircuitBreakerFactory() {
            return new PassThroughReactiveFactory();
        }

    }

    /**
     * Another implementation, whose breakers run the call as it is.
     */
    static class PassThroughFactory extends CircuitBreakerFactory<Object, ConfigBuilder<Object>> {

        @Override
        public CircuitBreaker create(String id) {
            return new CircuitBreaker() {

                @Override
                public <T> T run(Supplier<T> toRun, Function<@Nullable Throwable, T> fallback) {
                    return toRun.get();
                }

            };
        }

        @Override
        protected ConfigBuilder<Object> configBuilder(String id) {
            return Object::new;
        }

        @Override
        public void configureDefault(Function<String, Object> defaultConfiguration) {
        }

    }

    /**
     * Another reactive implementation, whose breakers return the call as it is.
     */
    static class PassThroughReactiveFactory extends ReactiveCircuitBreakerFactory<Object, ConfigBuilder<Object>> {

        @Override
        public ReactiveCircuitBreaker create(String id) {
            return new ReactiveCircuitBreaker() {

                @Override
                public <T> Mono<T> run(Mono<T> toRun, Function<Throwable, Mono<T>> fallback) {
                    return toRun;
                }

                @Override
                public <T> Flux<T> run(Flux<T> toRun, Function<Throwable, Flux<T>> fallback) {
                    return toRun;
                }

            };
        }

        @Override
        protected ConfigBuilder<Object> configBuilder(String id) {
            return Object::new;
        }

        @Override
        public void configureDefault(Function<String, Object> defaultConfiguration) {
        }

    }

}
