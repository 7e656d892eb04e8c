package dev.resilience.autoconfigure;

import dev.resilience.core.time.TimeSource;
import dev.resilience.logging.ExecutionLogListener;
import dev.resilience.registry.ResiliencePolicies;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures the {@link ExecutionLogListener} that logs retries, fallbacks and calls
 * that end without success, unless {@code resilience.logs.enabled} is {@code false}.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class)
@ConditionalOnBean(ResiliencePolicies.class)
@ConditionalOnBooleanProperty(name = "resilience.logs.enabled", matchIfMissing = true)
public final class ResilienceLogsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ExecutionLogListener resilienceExecutionLogListener(ResilienceProperties properties,
            ObjectProvider<TimeSource> time) {
        return new ExecutionLogListener(properties.getLogs().getInterval(), time.getIfAvailable(TimeSource::system));
    }

}
