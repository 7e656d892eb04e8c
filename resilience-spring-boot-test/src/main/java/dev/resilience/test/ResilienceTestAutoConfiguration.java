package dev.resilience.test;

import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What {@link AutoConfigureResilienceTest} adds to a test's context: the
 * {@link ResilienceReset} and, unless {@code resilience-test.virtual-time} is
 * {@code false}, a {@link VirtualTimeSource} as the engine's time source with the
 * {@link ResilienceClock} that moves it. It runs before the starter's auto-configuration,
 * whose time source backs off; a time source the application or the test defines wins
 * over both.
 */
@AutoConfiguration(before = ResilienceAutoConfiguration.class)
public final class ResilienceTestAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ResilienceReset resilienceReset(ApplicationContext context) {
        return ResilienceReset.of(context);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "resilience-test.virtual-time", matchIfMissing = true)
    static class VirtualTimeConfiguration {

        @Bean
        @ConditionalOnMissingBean(TimeSource.class)
        VirtualTimeSource resilienceVirtualTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(VirtualTimeSource.class)
        ResilienceClock resilienceClock(VirtualTimeSource timeSource) {
            return new ResilienceClock(timeSource);
        }

    }

}
