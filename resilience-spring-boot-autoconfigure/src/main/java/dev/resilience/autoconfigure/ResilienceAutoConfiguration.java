package dev.resilience.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;

import dev.resilience.aop.CallObserver;
import dev.resilience.aop.IdempotencyFingerprints;
import dev.resilience.aop.IdempotencyScopeResolver;
import dev.resilience.aop.ReactiveIdempotencyScopeResolver;
import dev.resilience.aop.ResilienceAdvisor;
import dev.resilience.aop.ResilienceInterceptor;
import dev.resilience.aop.ResilientMethods;
import dev.resilience.aop.SecurityContextIdempotencyScopeResolver;
import dev.resilience.chaos.ChaosInstances;
import dev.resilience.chaos.ChaosSettings;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.idempotency.ResultCodec;
import dev.resilience.core.lastgood.InMemoryLastGoodStore;
import dev.resilience.core.lastgood.LastGoodStore;
import dev.resilience.core.ratelimiter.RateLimiterStore;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.feature.CircuitBreakers;
import dev.resilience.redis.JsonResultCodec;
import dev.resilience.registry.ArgumentRenderer;
import dev.resilience.registry.InvalidResiliencePolicyException;
import dev.resilience.registry.JsonArgumentRenderer;
import dev.resilience.registry.PolicyResolver;
import dev.resilience.registry.ResiliencePolicies;
import dev.resilience.registry.ResilienceRegistry;
import dev.resilience.template.ResilienceTemplate;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.ClassUtils;

/**
 * Auto-configures the resilience annotations: the advisor and interceptor, the registry
 * of named instances, the in-memory idempotency and dead-letter stores, the
 * {@link ResilienceTemplate}, and the {@link CircuitBreakers} of feature shunting. Every
 * bean backs off when the application defines its own.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
        "org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration" })
@EnableConfigurationProperties(ResilienceProperties.class)
@Import(ResilienceAutoConfiguration.AutoProxyRegistrar.class)
public final class ResilienceAutoConfiguration {

    private static final Log logger = LogFactory.getLog(ResilienceAutoConfiguration.class);

    /**
     * The name of the bean that tracks the steps handed to the executor of asynchronous
     * work.
     */
    static final String ASYNC_STEP_TRACKER = "resilienceAsyncStepTracker";

    private static final String SECURITY_CONTEXT_HOLDER = "org.springframework.security.core.context.SecurityContextHolder";

    /** The property that moves the interceptor relative to other advice. */
    static final String INTERCEPTOR_ORDER = "resilience.interceptor-order";

    @Bean
    @ConditionalOnMissingBean
    TimeSource resilienceTimeSource() {
        return TimeSource.system();
    }

    /**
     * The named instances, resolved from the {@code resilience.*} properties and the
     * annotations. The breakers' automatic transitions and their listeners run on the
     * executor of {@code resilience.async.executor}, never on the timer thread.
     */
    @Bean
    @ConditionalOnMissingBean
    @SuppressWarnings("removal")
    ResilienceRegistry resilienceRegistry(ResilienceProperties properties, TimeSource timeSource,
            AsyncStepTracker asyncSteps, ObjectProvider<RateLimiterStore> rateLimiterStore,
            ObjectProvider<dev.resilience.core.circuitbreaker.CircuitBreakerRegistry> unused) {
        unused.ifAvailable((breakers) -> logger.warn("A CircuitBreakerRegistry bean is defined, and no longer used: "
                + "ResilienceRegistry creates and keeps the breakers, configured by "
                + "resilience.circuit-breaker.instances.<name>; remove the bean"));
        PolicyResolver resolver = new PropertiesPolicyResolver(properties, timeSource, rateLimiterStore::getIfUnique);
        Executor executor = asyncSteps.executor();
        return (executor != null) ? new ResilienceRegistry(resolver, timeSource, executor)
                : new ResilienceRegistry(resolver, timeSource);
    }

    /**
     * The breakers for feature shunting, under the name SpEL uses:
     * {@code @circuitBreakers.allows('name')}; absent when the application has a bean of
     * that type or of that name.
     */
    @Bean(CircuitBreakers.BEAN_NAME)
    @ConditionalOnMissingBean(value = CircuitBreakers.class, name = CircuitBreakers.BEAN_NAME)
    CircuitBreakers circuitBreakers(ResilienceRegistry registry) {
        return new CircuitBreakers(registry);
    }

    /**
     * The steps of asynchronous calls, handed to the executor of
     * {@code resilience.async.executor}; that executor is made to depend on this bean, so
     * it is destroyed first and the steps it never started are ended after it. On a
     * {@link VirtualTimeSource} without that setting, the engine runs the steps on the
     * thread that advances the time, as it does without Spring.
     */
    @Bean
    AsyncStepTracker resilienceAsyncStepTracker(ResilienceProperties properties, TimeSource timeSource,
            ConfigurableListableBeanFactory beanFactory) {
        boolean virtual = timeSource instanceof VirtualTimeSource && properties.getAsync().getExecutor() == null;
        String executor = virtual ? null : AsyncExecutorLookup.beanName(beanFactory, properties);
        if (executor == null) {
            return new AsyncStepTracker(null);
        }
        beanFactory.registerDependentBean(ASYNC_STEP_TRACKER, executor);
        return new AsyncStepTracker(AsyncExecutorLookup.lazily(beanFactory, executor));
    }

    @Bean
    @ConditionalOnMissingBean
    ResiliencePolicies resiliencePolicies(ResilienceProperties properties, ResilienceRegistry registry,
            TimeSource timeSource, ObjectProvider<IdempotencyStore> idempotencyStore,
            ObjectProvider<DeadLetterStore> deadLetterStore, ObjectProvider<ExecutionListener> listeners,
            ObjectProvider<ArgumentRenderer> argumentRenderer, AsyncStepTracker asyncSteps) {
        return new ResiliencePolicies(registry, timeSource,
                new ResiliencePolicies.Collaborators(idempotencyStore, deadLetterStore, listeners,
                        asyncSteps.executor()),
                argumentRenderer.getIfAvailable(() -> ArgumentRenderer.TO_STRING),
                (int) properties.getDeadLetter().getMaxArgumentSize().toBytes());
    }

    @Bean
    @ConditionalOnMissingBean
    ResilientMethods resilientMethods(ResiliencePolicies policies, ObjectProvider<ObservationRegistry> observations,
            IdempotencyScopeResolver idempotencyScopeResolver, IdempotencyFingerprints idempotencyFingerprints,
            ObjectProvider<ChaosInstances> chaos, ObjectProvider<LastGoodStore> lastGoodStore,
            ObjectProvider<ReactiveIdempotencyScopeResolver> reactiveIdempotencyScopeResolver) {
        ResilientMethods methods = new ResilientMethods(policies,
                new CallObserver(observations.getIfAvailable(() -> ObservationRegistry.NOOP)), idempotencyScopeResolver,
                idempotencyFingerprints, chaos.getIfAvailable(), lastGoodStore::getObject);
        reactiveIdempotencyScopeResolver.ifAvailable(methods::scopeSubscribers);
        return methods;
    }

    /**
     * The memory store of last good values, unless they are kept in Redis.
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(name = "resilience.fallback.last-good.store", havingValue = "memory", matchIfMissing = true)
    LastGoodStore inMemoryLastGoodStore(ResilienceProperties properties, TimeSource timeSource) {
        return new InMemoryLastGoodStore(properties.getFallback().getLastGood().getMaxEntries(), timeSource);
    }

    /**
     * Idempotency keys are scoped to the authenticated principal when Spring Security is
     * present.
     */
    @Bean
    @ConditionalOnMissingBean
    IdempotencyScopeResolver idempotencyScopeResolver() {
        return ClassUtils.isPresent(SECURITY_CONTEXT_HOLDER, ResilienceAutoConfiguration.class.getClassLoader())
                ? new SecurityContextIdempotencyScopeResolver() : IdempotencyScopeResolver.NONE;
    }

    @Bean
    @ConditionalOnMissingBean
    IdempotencyFingerprints idempotencyFingerprints(ResilienceProperties properties,
            ObjectProvider<IdempotencyStore> idempotencyStore, ObjectProvider<LastGoodStore> lastGoodStore) {
        return IdempotencyFingerprintSecret.fingerprints(properties, idempotencyStore.getIfUnique(),
                lastGoodStore.getIfUnique());
    }

    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static ResilienceAdvisor resilienceAdvisor(ObjectProvider<ResilientMethods> methods, Environment environment) {
        int order = environment.getProperty(INTERCEPTOR_ORDER, Integer.class, Ordered.LOWEST_PRECEDENCE - 1);
        return new ResilienceAdvisor(new ResilienceInterceptor(methods::getObject), order);
    }

    @Bean
    @ConditionalOnMissingBean
    ResilienceTemplate resilienceTemplate(ResiliencePolicies policies) {
        return new ResilienceTemplate(policies);
    }

    /**
     * Says at startup which stores are in use, that the in-memory ones are per instance,
     * and which rate limiters share their permits.
     */
    @Bean
    ResilienceStoresReport resilienceStoresReport(ObjectProvider<IdempotencyStore> idempotencyStore,
            ObjectProvider<DeadLetterStore> deadLetterStore, ObjectProvider<ResilienceRegistry> registry,
            ObjectProvider<RateLimiterStore> rateLimiterStore) {
        return new ResilienceStoresReport(idempotencyStore, deadLetterStore, registry, rateLimiterStore);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(JsonMapper.class)
    static class JsonArgumentRendererConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ArgumentRenderer argumentRenderer(ObjectProvider<JsonMapper> mapper) {
            return new JsonArgumentRenderer(mapper.getIfAvailable(() -> JsonMapper.builder().build()));
        }

        @Bean
        @ConditionalOnMissingBean
        JsonResultCodec idempotencyResultCodec(ObjectProvider<JsonMapper> mapper, ResilienceProperties properties) {
            ResilienceProperties.Idempotency idempotency = properties.getIdempotency();
            return new JsonResultCodec(mapper.getIfAvailable(() -> JsonMapper.builder().build()),
                    idempotency.getAllowedTypes(), idempotency.getMaxResultSize());
        }

    }

    /**
     * Faults injected into the attempts of protected operations, while
     * {@code resilience.chaos.enabled} is set: said at startup with a WARN, and another
     * for each configured name that no protected operation has.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty("resilience.chaos.enabled")
    static class ChaosConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ChaosInstances chaosInstances(ResilienceProperties properties) {
            Map<String, ChaosSettings> configured = new LinkedHashMap<>();
            properties.getChaos()
                .getInstances()
                .forEach((name, instance) -> configured.put(name, new ChaosSettings(instance.getFailureRate(),
                        instance.getLatency(), ChaosExceptions.load(instance.getException()))));
            StringBuilder settings = new StringBuilder();
            configured
                .forEach((name, instance) -> settings.append("\n    ").append(name).append(": ").append(instance));
            logger.warn("Chaos is enabled (resilience.chaos.enabled=true): faults are injected into the attempts of "
                    + "protected operations; "
                    + (configured.isEmpty() ? "none is configured yet" : "configured instances:" + settings));
            return new ChaosInstances(configured);
        }

        @Bean
        ChaosNamesCheck chaosNamesCheck(ChaosInstances chaos) {
            return new ChaosNamesCheck(chaos);
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "resilience.idempotency.store", havingValue = "memory", matchIfMissing = true)
    static class InMemoryIdempotencyStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean
        IdempotencyStore idempotencyStore(TimeSource timeSource, ResilienceProperties properties,
                ObjectProvider<ResultCodec> codec) {
            return new InMemoryIdempotencyStore(timeSource, properties.getIdempotency().getMaxEntries(),
                    codec.getIfAvailable());
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "resilience.dead-letter.store", havingValue = "memory", matchIfMissing = true)
    static class InMemoryDeadLetterStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean
        DeadLetterStore deadLetterStore(ResilienceProperties properties, TimeSource timeSource) {
            ResilienceProperties.DeadLetter deadLetter = properties.getDeadLetter();
            return new InMemoryDeadLetterStore(deadLetter.getCapacity(), deadLetter.getTtl(), timeSource);
        }

    }

    /**
     * Fails the start when a Redis store is chosen but Spring Data Redis is missing,
     * rather than leaving the application without that store.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass("org.springframework.data.redis.connection.RedisConnectionFactory")
    static class RedisStoresRequireSpringDataRedis {

        RedisStoresRequireSpringDataRedis(ResilienceProperties properties) {
            if (properties.getIdempotency().getStore() == ResilienceProperties.Idempotency.Store.REDIS) {
                throw missingSpringDataRedis("idempotency");
            }
            if (properties.getDeadLetter().getStore() == ResilienceProperties.DeadLetter.Store.REDIS) {
                throw missingSpringDataRedis("dead-letter");
            }
        }

        private static InvalidResiliencePolicyException missingSpringDataRedis(String group) {
            return new InvalidResiliencePolicyException("resilience." + group, "resilience." + group + ".store",
                    "redis", "Spring Data Redis is not on the classpath",
                    "Add spring-boot-starter-data-redis to the application's dependencies, or choose another store.");
        }

    }

    /**
     * Makes sure an auto-proxy creator exists, so that the advisor is applied even where
     * Spring Boot's AOP auto-configuration is switched off.
     */
    static class AutoProxyRegistrar implements ImportBeanDefinitionRegistrar {

        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
        }

    }

}
