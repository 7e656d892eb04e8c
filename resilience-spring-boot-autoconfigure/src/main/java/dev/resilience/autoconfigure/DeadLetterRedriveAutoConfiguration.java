package dev.resilience.autoconfigure;

import dev.resilience.aop.IdempotencyScopeResolver;
import dev.resilience.aop.ResilientMethods;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.redrive.DeadLetterRedrive;
import dev.resilience.redrive.RedriveListener;
import dev.resilience.redrive.RedrivenCalls;
import dev.resilience.registry.ArgumentRenderer;
import dev.resilience.registry.JsonArgumentRenderer;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures the {@link DeadLetterRedrive} when the application has a
 * {@link DeadLetterStore}, in memory or in Redis, and Jackson to read the stored
 * arguments back with the mapper that wrote them.
 */
@AutoConfiguration(after = { ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class })
@ConditionalOnClass(JsonMapper.class)
@ConditionalOnBean({ ResilientMethods.class, DeadLetterStore.class })
public final class DeadLetterRedriveAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RedrivenCalls resilienceRedrivenCalls(ResilientMethods methods) {
        RedrivenCalls calls = new RedrivenCalls();
        methods.customizeCalls(calls);
        return calls;
    }

    @Bean
    @ConditionalOnMissingBean
    DeadLetterRedrive deadLetterRedrive(DeadLetterStore store, ResilientMethods methods, BeanFactory beans,
            ObjectProvider<JsonMapper> mapper, ObjectProvider<ArgumentRenderer> renderer, RedrivenCalls calls,
            ObjectProvider<RedriveListener> listeners, ObjectProvider<IdempotencyScopeResolver> scopes,
            ResilienceProperties properties) {
        JsonMapper jsonMapper = mapper.getIfAvailable(() -> JsonMapper.builder().build());
        return new DeadLetterRedrive(store, methods, beans, jsonMapper,
                renderer.getIfAvailable(() -> new JsonArgumentRenderer(jsonMapper)), calls,
                listeners.orderedStream().toList(), scopes.getIfAvailable(() -> IdempotencyScopeResolver.NONE),
                properties.getDeadLetter().getRedriveLease());
    }

}
