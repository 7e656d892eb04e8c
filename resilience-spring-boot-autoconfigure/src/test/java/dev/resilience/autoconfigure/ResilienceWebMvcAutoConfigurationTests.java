package dev.resilience.autoconfigure;

import dev.resilience.core.time.TimeSource;
import dev.resilience.web.IdempotencyKeyHeaderInterceptor;
import dev.resilience.web.IdempotencyProblemAdvice;
import dev.resilience.web.IdempotentReplayHeaderListener;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class ResilienceWebMvcAutoConfigurationTests {

    private final AutoConfigurations configurations = AutoConfigurations.of(ResilienceAutoConfiguration.class,
            ResilienceWebMvcAutoConfiguration.class);

    @Test
    void servletWebApplicationGetsTheProblemAdviceTheKeyHeaderCheckAndTheReplayHeader() {
        new WebApplicationContextRunner().withConfiguration(this.configurations)
            .run((context) -> assertThat(context).hasSingleBean(IdempotencyProblemAdvice.class)
                .hasSingleBean(IdempotencyKeyHeaderInterceptor.class)
                .hasSingleBean(IdempotentReplayHeaderListener.class));
    }

    @Test
    void applicationThatIsNotAWebApplicationGetsNeither() {
        new ApplicationContextRunner().withConfiguration(this.configurations)
            .run((context) -> assertThat(context).doesNotHaveBean(IdempotencyProblemAdvice.class)
                .doesNotHaveBean(IdempotencyKeyHeaderInterceptor.class)
                .doesNotHaveBean(IdempotentReplayHeaderListener.class));
    }

    @Test
    void whenTheApplicationDefinesItsOwnAdviceTheAutoConfiguredOneBacksOff() {
        new WebApplicationContextRunner().withConfiguration(this.configurations)
            .withUserConfiguration(OwnAdvice.class)
            .run((context) -> assertThat(context.getBeansOfType(IdempotencyProblemAdvice.class))
                .containsOnlyKeys("ownAdvice"));
    }

    @Test
    void whenTheApplicationDefinesItsOwnKeyHeaderInterceptorTheAutoConfiguredOneBacksOff() {
        new WebApplicationContextRunner().withConfiguration(this.configurations)
            .withUserConfiguration(OwnInterceptor.class)
            .run((context) -> assertThat(context.getBeansOfType(IdempotencyKeyHeaderInterceptor.class))
                .containsOnlyKeys("ownInterceptor"));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnInterceptor {

        @Bean
        IdempotencyKeyHeaderInterceptor ownInterceptor(ConfigurableListableBeanFactory beanFactory) {
            return new IdempotencyKeyHeaderInterceptor(beanFactory);
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class OwnAdvice {

        @Bean
        IdempotencyProblemAdvice ownAdvice(TimeSource timeSource) {
            return new IdempotencyProblemAdvice(timeSource);
        }

    }

}
