package dev.resilience.autoconfigure;

import dev.resilience.core.time.TimeSource;
import dev.resilience.web.IdempotencyProblemAdvice;
import dev.resilience.web.IdempotentReplayHeaderListener;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Auto-configures idempotent Spring MVC endpoints: problem responses for refused
 * idempotency keys, and the {@code Idempotent-Replayed} header on replayed responses. Each
 * bean backs off when the application defines its own.
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
    IdempotentReplayHeaderListener idempotentReplayHeaderListener() {
        return new IdempotentReplayHeaderListener();
    }
}
