package dev.resilience.autoconfigure;

import java.time.Duration;

import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.OnInProgress;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class IdempotencyPolicyResolverTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withUserConfiguration(PropertiesConfiguration.class);

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(new VirtualTimeSource());

    @Test
    void withoutPropertiesTheDurationsAreTheCoreDefaultsAndTheBehaviourComesFromTheAnnotation() {
        this.contextRunner.run((context) -> {
            IdempotencyPolicy policy = new IdempotencyPolicyResolver(context.getBean(ResilienceProperties.class))
                .resolve("pay", idempotent("waits"), this.store);
            assertThat(policy.name()).isEqualTo("pay");
            assertThat(policy.store()).isSameAs(this.store);
            assertThat(policy.ttl()).isEqualTo(IdempotencyPolicy.DEFAULT_TTL);
            assertThat(policy.inProgressTtl()).isEqualTo(IdempotencyPolicy.DEFAULT_IN_PROGRESS_TTL);
            assertThat(policy.onInProgress()).isEqualTo(OnInProgress.WAIT);
        });
    }

    @Test
    void propertiesSetTheDurationsTheAnnotationLeavesUnset() {
        this.contextRunner
            .withPropertyValues("resilience.idempotency.ttl=2h", "resilience.idempotency.in-progress-ttl=10s")
            .run((context) -> {
                IdempotencyPolicy policy = new IdempotencyPolicyResolver(context.getBean(ResilienceProperties.class))
                    .resolve("pay", idempotent("waits"), this.store);
                assertThat(policy.ttl()).isEqualTo(Duration.ofHours(2));
                assertThat(policy.inProgressTtl()).isEqualTo(Duration.ofSeconds(10));
            });
    }

    @Test
    void annotationTtlWinsOverTheProperty() {
        this.contextRunner.withPropertyValues("resilience.idempotency.ttl=2h")
            .run((context) -> assertThat(new IdempotencyPolicyResolver(context.getBean(ResilienceProperties.class))
                .resolve("pay", idempotent("keptTenMinutes"), this.store)
                .ttl()).isEqualTo(Duration.ofMinutes(10)));
    }

    @Test
    void unparsableAnnotationTtlIsReportedWithItsSettingValueReasonAndFix() {
        this.contextRunner.run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> new IdempotencyPolicyResolver(context.getBean(ResilienceProperties.class)).resolve("pay",
                    idempotent("keptUntilTomorrow"), this.store))
            .satisfies((ex) -> {
                assertThat(ex.getSubject()).isEqualTo("pay");
                assertThat(ex.getSetting()).isEqualTo("@Idempotent(ttl)");
                assertThat(ex.getValue()).isEqualTo("tomorrow");
                assertThat(ex.getReason()).contains("is not a duration");
                assertThat(ex.getFix()).isEqualTo("Use a duration such as \"200ms\" or \"2s\".");
            }));
    }

    @Test
    void negativeAnnotationTtlIsReportedAsNotPositive() {
        this.contextRunner.run((context) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> new IdempotencyPolicyResolver(context.getBean(ResilienceProperties.class)).resolve("pay",
                    idempotent("keptNegatively"), this.store))
            .satisfies((ex) -> {
                assertThat(ex.getSetting()).isEqualTo("@Idempotent(ttl)");
                assertThat(ex.getValue()).isEqualTo("-1m");
                assertThat(ex.getReason()).isEqualTo("the duration must be positive");
            }));
    }

    private static Idempotent idempotent(String method) {
        return ReflectionUtils.findMethod(AnnotatedMethods.class, method).getAnnotation(Idempotent.class);
    }

    static class AnnotatedMethods {

        @Idempotent(key = "#key", onInProgress = OnInProgress.WAIT)
        void waits() {
        }

        @Idempotent(key = "#key", ttl = "10m")
        void keptTenMinutes() {
        }

        @Idempotent(key = "#key", ttl = "tomorrow")
        void keptUntilTomorrow() {
        }

        @Idempotent(key = "#key", ttl = "-1m")
        void keptNegatively() {
        }

    }

}
