package dev.resilience.autoconfigure;

import dev.resilience.chaos.ChaosInstances;
import dev.resilience.metrics.ChaosMeterBinder;
import dev.resilience.metrics.DeadLetterRedriveMeters;
import dev.resilience.metrics.ResilienceCallsMeterFilter;
import dev.resilience.metrics.ResilienceMeterBinder;
import dev.resilience.registry.ResilienceRegistry;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures the Micrometer meters of every named instance, those of chaos while it
 * is enabled, and the filter that keeps the observation's event counters from duplicating
 * {@code resilience.retries} and {@code resilience.fallbacks}.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class,
        afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
                "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ ResilienceRegistry.class, MeterRegistry.class })
public final class ResilienceMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ResilienceMeterBinder resilienceMeterBinder(ResilienceRegistry registry, MeterRegistry meterRegistry) {
        return new ResilienceMeterBinder(registry, meterRegistry);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ChaosInstances.class)
    ChaosMeterBinder chaosMeterBinder(ChaosInstances chaos) {
        return new ChaosMeterBinder(chaos);
    }

    /** Counts re-drives of dead letters, when the application has them. */
    @Bean
    @ConditionalOnMissingBean
    DeadLetterRedriveMeters deadLetterRedriveMeters(MeterRegistry meterRegistry) {
        return new DeadLetterRedriveMeters(meterRegistry);
    }

    @Bean
    @ConditionalOnMissingBean
    static ResilienceCallsMeterFilter resilienceResilienceCallsMeterFilter() {
        return new ResilienceCallsMeterFilter();
    }

}
