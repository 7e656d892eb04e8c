package dev.resilience.autoconfigure;

import java.time.Duration;

import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.lastgood.LastGoodStore;
import dev.resilience.core.ratelimiter.RateLimiterStore;
import dev.resilience.core.time.TimeSource;
import dev.resilience.redis.JsonResultCodec;
import dev.resilience.redis.RedisDeadLetterStore;
import dev.resilience.redis.RedisEvictionPolicyCheck;
import dev.resilience.redis.RedisIdempotencyStore;
import dev.resilience.redis.RedisLastGoodStore;
import dev.resilience.redis.RedisRateLimiterStore;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.StringUtils;

/**
 * Auto-configures the Redis idempotency store when
 * {@code resilience.idempotency.store=redis} and the Redis dead-letter store when
 * {@code resilience.dead-letter.store=redis} and the Redis store of last good values when
 * {@code resilience.fallback.last-good.store=redis}, on the application's
 * {@link RedisConnectionFactory}, each call bounded by
 * {@code resilience.idempotency.store-timeout} or
 * {@code resilience.dead-letter.store-timeout}, and the Redis store of the rate limiters
 * whose store is redis wherever there is a connection factory, each permit bounded by
 * {@code resilience.rate-limiter.redis.store-timeout}. The default key prefixes are
 * scoped to {@code spring.application.name} ({@code <app>:idem:},
 * {@code <app>:deadletters}, {@code <app>:ratelimit:}); a
 * {@link RedisEvictionPolicyCheck} warns when Redis may evict the stores' keys. The
 * in-memory stores of {@link ResilienceAutoConfiguration} exist only for {@code memory}
 * (or no value), so exactly one store of each kind exists whatever the order; either
 * backs off for a store the application defines.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class,
        afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass({ RedisConnectionFactory.class, JsonMapper.class })
public final class ResilienceRedisAutoConfiguration {

    private static JsonMapper jsonMapper(ObjectProvider<JsonMapper> mapper) {
        return mapper.getIfAvailable(() -> JsonMapper.builder().build());
    }

    /**
     * Returns a configured prefix, or the default scoped to
     * {@code spring.application.name}.
     */
    private static String prefix(@Nullable String configured, Environment environment, String suffix,
            String withoutName) {
        if (configured != null) {
            return configured;
        }
        String name = environment.getProperty("spring.application.name");
        return StringUtils.hasText(name) ? name + ":" + suffix : withoutName;
    }

    @Bean
    @ConditionalOnMissingBean
    @Conditional(RedisStoreCondition.class)
    RedisEvictionPolicyCheck redisEvictionPolicyCheck(RedisConnectionFactory connectionFactory,
            ResilienceProperties properties) {
        Duration idempotency = properties.getIdempotency().getStoreTimeout();
        Duration deadLetter = properties.getDeadLetter().getStoreTimeout();
        return new RedisEvictionPolicyCheck(connectionFactory,
                (idempotency.compareTo(deadLetter) >= 0) ? idempotency : deadLetter);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "resilience.idempotency.store", havingValue = "redis")
    static class RedisIdempotencyStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean(IdempotencyStore.class)
        RedisIdempotencyStore redisIdempotencyStore(RedisConnectionFactory connectionFactory, JsonResultCodec codec,
                ResilienceProperties properties, Environment environment,
                ObjectProvider<RedisEvictionPolicyCheck> evictionCheck) {
            ResilienceProperties.Idempotency idempotency = properties.getIdempotency();
            return new RedisIdempotencyStore(new StringRedisTemplate(connectionFactory), codec,
                    prefix(idempotency.getKeyPrefix(), environment, "idem:", "idem:"), idempotency.getStoreTimeout(),
                    evictionCheck.getIfAvailable());
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "resilience.dead-letter.store", havingValue = "redis")
    static class RedisDeadLetterStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean(DeadLetterStore.class)
        RedisDeadLetterStore redisDeadLetterStore(RedisConnectionFactory connectionFactory,
                ObjectProvider<JsonMapper> mapper, ResilienceProperties properties, Environment environment,
                TimeSource timeSource, ObjectProvider<RedisEvictionPolicyCheck> evictionCheck) {
            ResilienceProperties.DeadLetter deadLetter = properties.getDeadLetter();
            return new RedisDeadLetterStore(new StringRedisTemplate(connectionFactory), jsonMapper(mapper),
                    prefix(deadLetter.getKeyPrefix(), environment, "deadletters", RedisDeadLetterStore.DEFAULT_NAME),
                    deadLetter.getCapacity(), deadLetter.getStoreTimeout(), deadLetter.getTtl(), timeSource,
                    evictionCheck.getIfAvailable());
        }

    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "resilience.fallback.last-good.store", havingValue = "redis")
    static class RedisLastGoodStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean(LastGoodStore.class)
        RedisLastGoodStore redisLastGoodStore(RedisConnectionFactory connectionFactory, JsonResultCodec codec,
                ResilienceProperties properties, Environment environment,
                ObjectProvider<RedisEvictionPolicyCheck> evictionCheck) {
            ResilienceProperties.LastGood lastGood = properties.getFallback().getLastGood();
            return new RedisLastGoodStore(new StringRedisTemplate(connectionFactory), codec,
                    prefix(lastGood.getKeyPrefix(), environment, "lastgood:", "lastgood:"), lastGood.getStoreTimeout(),
                    evictionCheck.getIfAvailable());
        }

    }

    /**
     * The store of the rate limiters whose store is redis, wherever the application has a
     * {@link RedisConnectionFactory}: which limiters use it is only known once their
     * annotations are read. It checks Redis's eviction policy with the other stores'
     * check when there is one, else with one of its own, after its first permit.
     */
    @Bean
    @ConditionalOnMissingBean(RateLimiterStore.class)
    @ConditionalOnBean(RedisConnectionFactory.class)
    RedisRateLimiterStore redisRateLimiterStore(RedisConnectionFactory connectionFactory,
            ResilienceProperties properties, Environment environment, TimeSource timeSource,
            ObjectProvider<RedisEvictionPolicyCheck> evictionCheck) {
        RateLimiterRedisSettings redis = properties.getRateLimiter().getRedis();
        RedisEvictionPolicyCheck check = evictionCheck.getIfAvailable(() -> {
            RedisEvictionPolicyCheck own = new RedisEvictionPolicyCheck(connectionFactory);
            own.checkAfterNextSuccess();
            return own;
        });
        return new RedisRateLimiterStore(new StringRedisTemplate(connectionFactory),
                prefix(redis.getKeyPrefix(), environment, "ratelimit:", "ratelimit:"), redis.getStoreTimeout(),
                RedisRateLimiterStore.OnStoreError.valueOf(redis.getOnStoreError().name()), timeSource, check);
    }

    /**
     * Matches when any store is Redis.
     */
    static class RedisStoreCondition extends AnyNestedCondition {

        RedisStoreCondition() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(name = "resilience.idempotency.store", havingValue = "redis")
        static class IdempotencyStoreIsRedis {

        }

        @ConditionalOnProperty(name = "resilience.dead-letter.store", havingValue = "redis")
        static class DeadLetterStoreIsRedis {

        }

        @ConditionalOnProperty(name = "resilience.fallback.last-good.store", havingValue = "redis")
        static class LastGoodStoreIsRedis {

        }

    }

}
