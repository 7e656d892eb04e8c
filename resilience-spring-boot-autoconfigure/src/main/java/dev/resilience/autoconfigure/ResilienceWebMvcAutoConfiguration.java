package dev.resilience.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import dev.resilience.core.time.TimeSource;
import dev.resilience.web.CapacityProblemAdvice;
import dev.resilience.web.IdempotencyKeyHeaderInterceptor;
import dev.resilience.web.IdempotencyProblemAdvice;
import dev.resilience.web.IdempotentReplayHeaderListener;
import dev.resilience.web.ProblemAdviceExceptionResolver;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Auto-configures Spring MVC support: problem responses for refused idempotency keys, for
 * rate limits (429 with {@code Retry-After}) and full bulkheads (503), the check of the
 * headers an idempotent handler's key is made of, and the {@code Idempotent-Replayed}
 * header on replayed responses. Each bean backs off when the application defines its own.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
public final class ResilienceWebMvcAutoConfiguration {

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

    /**
     * Answers the exceptions of the problem advice before the application's controller
     * advice, but only those thrown as they are, never an application exception that
     * carries one as its cause.
     */
    @Bean
    WebMvcConfigurer problemAdviceWebMvcConfigurer(ObjectProvider<IdempotencyProblemAdvice> idempotency,
            ObjectProvider<CapacityProblemAdvice> capacity) {
        return new WebMvcConfigurer() {

            @Override
            public void extendHandlerExceptionResolvers(List<HandlerExceptionResolver> resolvers) {
                List<Object> advice = new ArrayList<>();
                idempotency.ifAvailable(advice::add);
                capacity.ifAvailable(advice::add);
                ProblemAdviceExceptionResolver.addBeforeExceptionHandlers(resolvers, advice);
            }
        };
    }

    @Bean
    @ConditionalOnMissingBean
    IdempotencyKeyHeaderInterceptor idempotencyKeyHeaderInterceptor(ConfigurableListableBeanFactory beanFactory) {
        return new IdempotencyKeyHeaderInterceptor(beanFactory);
    }

    @Bean
    WebMvcConfigurer idempotencyKeyHeaderWebMvcConfigurer(IdempotencyKeyHeaderInterceptor interceptor) {
        return new WebMvcConfigurer() {

            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(interceptor);
            }
        };
    }

    @Bean
    @ConditionalOnMissingBean
    IdempotentReplayHeaderListener idempotentReplayHeaderListener() {
        return new IdempotentReplayHeaderListener();
    }

}
