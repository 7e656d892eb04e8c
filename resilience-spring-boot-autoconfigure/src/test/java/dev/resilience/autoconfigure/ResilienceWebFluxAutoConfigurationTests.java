package dev.resilience.autoconfigure;

import dev.resilience.core.time.TimeSource;
import dev.resilience.web.CapacityProblemAdvice;
import dev.resilience.web.IdempotencyProblemAdvice;
import dev.resilience.webflux.IdempotencyKeyHeaderAdapter;
import dev.resilience.webflux.IdempotentReplayHeaderCalls;
import dev.resilience.webflux.WebFluxProblemAdvice;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.reactive.ServerWebExchangeContextFilter;

import static org.assertj.core.api.Assertions.assertThat;

class ResilienceWebFluxAutoConfigurationTests {

    private final AutoConfigurations configurations = AutoConfigurations.of(ResilienceAutoConfiguration.class,
            ResilienceWebFluxAutoConfiguration.class);

    @Test
    void reactiveWebApplicationGetsTheProblemAdviceTheKeyHeaderCheckAndTheReplayHeader() {
        new ReactiveWebApplicationContextRunner().withConfiguration(this.configurations)
            .run((context) -> assertThat(context).hasSingleBean(IdempotencyProblemAdvice.class)
                .hasSingleBean(CapacityProblemAdvice.class)
                .hasSingleBean(WebFluxProblemAdvice.class)
                .hasSingleBean(IdempotencyKeyHeaderAdapter.class)
                .hasSingleBean(ServerWebExchangeContextFilter.class)
                .hasSingleBean(IdempotentReplayHeaderCalls.class));
    }

    @Test
    void servletWebApplicationGetsNoneOfThem() {
        new WebApplicationContextRunner().withConfiguration(this.configurations)
            .run((context) -> assertThat(context).doesNotHaveBean(WebFluxProblemAdvice.class)
                .doesNotHaveBean(IdempotencyKeyHeaderAdapter.class)
                .doesNotHaveBean(ServerWebExchangeContextFilter.class)
                .doesNotHaveBean(IdempotentReplayHeaderCalls.class));
    }

    @Test
    void whenTheApplicationDefinesItsOwnIdempotencyAdviceTheWebFluxAdviceAsksIt() {
        new ReactiveWebApplicationContextRunner().withConfiguration(this.configurations)
            .withUserConfiguration(OwnAdvice.class)
            .run((context) -> {
                assertThat(context.getBeansOfType(IdempotencyProblemAdvice.class)).containsOnlyKeys("ownAdvice");
                assertThat(context).hasSingleBean(WebFluxProblemAdvice.class);
            });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnAdvice {

        @Bean
        IdempotencyProblemAdvice ownAdvice(TimeSource timeSource) {
            return new IdempotencyProblemAdvice(timeSource);
        }

    }

}
