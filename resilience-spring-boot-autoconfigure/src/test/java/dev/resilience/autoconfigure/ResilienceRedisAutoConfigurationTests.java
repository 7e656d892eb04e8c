package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.redis.RedisDeadLetterStore;
import dev.resilience.redis.RedisIdempotencyStore;
import dev.resilience.redis.RedisServer;
import dev.resilience.redis.ResponseEntityJacksonModule;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

class ResilienceRedisAutoConfigurationTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                        DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class));

    @Test
    void whenIdempotencyStoreIsRedisWithoutAFingerprintSecretThenTheStartFailsSayingHowToSetIt() {
        new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                            DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
            .withPropertyValues("resilience.idempotency.store=redis", "spring.data.redis.port=" + redis.port())
            .run((context) -> {
                assertThat(context).hasFailed();
                assertThat(FailureAnalyses.describe(context.getStartupFailure())).contains(
                        "resilience.idempotency.fingerprint-secret", RedisIdempotencyStore.class.getName(),
                        "at least 32 characters");
            });
    }

    @Test
    void whenIdempotencyStoreIsRedisThenTheRedisStoreIsTheOnlyOne() {
        this.contextRunner.withPropertyValues("resilience.idempotency.store=redis").run((context) -> {
            assertThat(context).hasSingleBean(IdempotencyStore.class).hasSingleBean(RedisIdempotencyStore.class);
            assertThat(context.getBean(DeadLetterStore.class)).isInstanceOf(InMemoryDeadLetterStore.class);
        });
    }

    @Test
    void whenDeadLetterStoreIsRedisThenTheRedisStoreIsTheOnlyOne() {
        this.contextRunner.withPropertyValues("resilience.dead-letter.store=redis").run((context) -> {
            assertThat(context).hasSingleBean(DeadLetterStore.class).hasSingleBean(RedisDeadLetterStore.class);
            assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(InMemoryIdempotencyStore.class);
        });
    }

    @Test
    void whenStoresAreMemoryOrUnsetThenOnlyInMemoryStoresExist() {
        this.contextRunner
            .run((context) -> assertOnlyInMemoryStores(context.getBeansOfType(IdempotencyStore.class).values(),
                    context.getBeansOfType(DeadLetterStore.class).values()));
        this.contextRunner
            .withPropertyValues("resilience.idempotency.store=memory", "resilience.dead-letter.store=memory")
            .run((context) -> assertOnlyInMemoryStores(context.getBeansOfType(IdempotencyStore.class).values(),
                    context.getBeansOfType(DeadLetterStore.class).values()));
    }

    @Test
    void whenDeadLettersAreOffThenNoDeadLetterStoreExists() {
        this.contextRunner.withPropertyValues("resilience.idempotency.store=redis", "resilience.dead-letter.store=none")
            .run((context) -> assertThat(context).doesNotHaveBean(DeadLetterStore.class)
                .hasSingleBean(RedisIdempotencyStore.class));
    }

    @Test
    void whenStoresAreRedisThenTheyUseTheKeyPrefixAndCapacity() {
        this.contextRunner
            .withPropertyValues("resilience.idempotency.store=redis", "resilience.dead-letter.store=redis",
                    "resilience.idempotency.key-prefix=pay:", "resilience.dead-letter.capacity=7")
            .run((context) -> {
                assertThat(context.getBean(RedisIdempotencyStore.class)).hasFieldOrPropertyWithValue("keyPrefix",
                        "pay:");
                assertThat(context.getBean(RedisDeadLetterStore.class)).hasFieldOrPropertyWithValue("capacity", "7");
            });
    }

    @Test
    void whenIdempotencyStoreIsRedisThenTheApplicationJsonMapperWritesResponseEntitiesAsWithoutTheStarter() {
        ResponseEntity<String> response = ResponseEntity.status(201).header("Set-Cookie", "SESSION=s-1").body("ok");
        AtomicReference<String> withoutRedisStore = new AtomicReference<>();
        this.contextRunner
            .run((context) -> withoutRedisStore.set(context.getBean(JsonMapper.class).writeValueAsString(response)));
        this.contextRunner.withPropertyValues("resilience.idempotency.store=redis").run((context) -> {
            assertThat(context).doesNotHaveBean(ResponseEntityJacksonModule.class);
            assertThat(context.getBean(JsonMapper.class).writeValueAsString(response))
                .isEqualTo(withoutRedisStore.get());
        });
    }

    @Test
    void whenUserDefinesStoresThenRedisStoresBackOff() {
        this.contextRunner
            .withPropertyValues("resilience.idempotency.store=redis", "resilience.dead-letter.store=redis")
            .withUserConfiguration(UserStores.class)
            .run((context) -> {
                assertThat(context.getBean(IdempotencyStore.class)).isSameAs(context.getBean("userIdempotencyStore"));
                assertThat(context.getBean(DeadLetterStore.class)).isSameAs(context.getBean("userDeadLetterStore"));
                assertThat(context).doesNotHaveBean(RedisIdempotencyStore.class)
                    .doesNotHaveBean(RedisDeadLetterStore.class);
            });
    }

    @Test
    void whenSpringDataRedisIsAbsentThenNoRedisStoreExistsAndMemoryStoresRemain() {
        this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.data.redis."))
            .run((context) -> {
                assertThat(context).doesNotHaveBean(ResilienceRedisAutoConfiguration.class);
                assertOnlyInMemoryStores(context.getBeansOfType(IdempotencyStore.class).values(),
                        context.getBeansOfType(DeadLetterStore.class).values());
            });
    }

    @Test
    void whenARedisStoreIsChosenWithoutSpringDataRedisThenTheStartFailsNamingTheProperty() {
        this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.data.redis."))
            .withPropertyValues("resilience.dead-letter.store=redis")
            .run((context) -> assertThat(context).getFailure()
                .rootCause()
                .isInstanceOf(InvalidResiliencePolicyException.class)
                .hasMessageContaining("resilience.dead-letter.store")
                .hasMessageContaining("Spring Data Redis is not on the classpath"));
    }

    @Test
    void whenIdempotencyStoreIsRedisThenItClaimsOnTheApplicationsRedis() {
        this.contextRunner.withPropertyValues("resilience.idempotency.store=redis")
            .withPropertyValues(redis.springProperties().toArray(String[]::new))
            .run((context) -> {
                IdempotencyStore store = context.getBean(IdempotencyStore.class);
                assertThat(store.claim("k", "f", Duration.ofSeconds(5))).isInstanceOf(ClaimResult.Acquired.class);
                assertThat(store.claim("k", "f", Duration.ofSeconds(5))).isInstanceOf(ClaimResult.InProgress.class);
                assertThat(redis.command("HGET idem:k state")).isEqualTo("$11");
            });
    }

    private static void assertOnlyInMemoryStores(java.util.Collection<IdempotencyStore> idempotencyStores,
            java.util.Collection<DeadLetterStore> deadLetterStores) {
        assertThat(idempotencyStores).singleElement().isInstanceOf(InMemoryIdempotencyStore.class);
        assertThat(deadLetterStores).singleElement().isInstanceOf(InMemoryDeadLetterStore.class);
    }

    @Configuration(proxyBeanMethods = false)
    static class UserStores {

        @Bean
        IdempotencyStore userIdempotencyStore() {
            return new InMemoryIdempotencyStore(dev.resilience.core.time.TimeSource.system());
        }

        @Bean
        DeadLetterStore userDeadLetterStore() {
            return new InMemoryDeadLetterStore(5);
        }

    }

}
