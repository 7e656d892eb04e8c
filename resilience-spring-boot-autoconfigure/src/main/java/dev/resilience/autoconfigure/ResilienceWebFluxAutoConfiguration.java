package dev.resilience.autoconfigure;

import dev.resilience.aop.ResilientMethods;
import dev.resilience.core.time.TimeSource;
import dev.resilience.web.CapacityProblemAdvice;
import dev.resilience.web.IdempotencyKeyHeaders;
import dev.resilience.web.IdempotencyProblemAdvice;
import dev.resilience.webflux.IdempotencyKeyHeaderAdapter;
import dev.resilience.webflux.IdempotentReplayHeaderCalls;
import dev.resilience.webflux.WebFluxProblemAdvice;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.filter.reactive.ServerWebExchangeContextFilter;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerAdapter;

/**
 * Auto-configures Spring WebFlux support, the twin of
 * {@link ResilienceWebMvcAutoConfiguration}: the same problem responses for refused
 * idempotency keys, rate limits and full bulkheads, the check of the headers an
 * idempotent handler's key is made of, and the {@code Idempotent-Replayed} header on
 * replayed responses, found through the exchange that
 * {@link ServerWebExchangeContextFilter} puts in the Reactor context. Each bean backs off
 * when the application defines its own.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(DispatcherHandler.class)
public final class ResilienceWebFluxAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    IdempotencyProblemAdvice idempotencyProblemAdvice(TimeSource timeSource) {
        return new IdempotencyProblemAdvice(timeSource);
    }

    @Bean
    @ConditionalOnMissingBean
    CapacityProblemAdvice capacityProblemAdvice() {
        return new CapacityProblemAdvice();
    }

    @Bean
    @ConditionalOnMissingBean
    WebFluxProblemAdvice webFluxProblemAdvice(IdempotencyProblemAdvice idempotency, CapacityProblemAdvice capacity) {
        return new WebFluxProblemAdvice(idempotency, capacity);
    }

    @Bean
    @ConditionalOnMissingBean
    IdempotencyKeyHeaderAdapter idempotencyKeyHeaderAdapter(ConfigurableListableBeanFactory beanFactory,
            ObjectProvider<RequestMappingHandlerAdapter> handlerMethods) {
        return new IdempotencyKeyHeaderAdapter(new IdempotencyKeyHeaders(beanFactory, null), handlerMethods::getObject);
    }

    @Bean
    @ConditionalOnMissingBean
    ServerWebExchangeContextFilter serverWebExchangeContextFilter() {
        return new ServerWebExchangeContextFilter();
    }

    @Bean
    @ConditionalOnMissingBean
    IdempotentReplayHeaderCalls idempotentReplayHeaderCalls(ObjectProvider<ResilientMethods> methods) {
        IdempotentReplayHeaderCalls calls = new IdempotentReplayHeaderCalls();
        methods.ifAvailable((available) -> available.customizeCalls(calls));
        return calls;
    }

}
