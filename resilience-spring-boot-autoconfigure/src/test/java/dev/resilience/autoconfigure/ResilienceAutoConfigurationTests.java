package dev.resilience.autoconfigure;

import java.io.IOException;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.aop.ResilienceAdvisor;
import dev.resilience.aop.ResilientMethods;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import dev.resilience.template.ResilienceTemplate;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import static org.assertj.core.api.Assertions.assertThat;

class ResilienceAutoConfigurationTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class));

    @Test
    void whenNothingIsConfiguredThenEveryBeanIsPresentWithInMemoryStores() {
        this.contextRunner.run((context) -> {
            assertThat(context).hasSingleBean(TimeSource.class)
                .hasSingleBean(ResilienceRegistry.class)
                .hasSingleBean(ResilientMethods.class)
                .hasSingleBean(ResilienceAdvisor.class)
                .hasSingleBean(ResilienceTemplate.class);
            assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(InMemoryIdempotencyStore.class);
            assertThat(context.getBean(DeadLetterStore.class)).isInstanceOf(InMemoryDeadLetterStore.class);
            assertThat(context.getBean(ResilienceAdvisor.class).getOrder()).isEqualTo(Ordered.LOWEST_PRECEDENCE - 1);
        });
    }

    @Test
    void whenUserDefinesClockAndStoresThenAutoConfiguredOnesBackOff() {
        this.contextRunner.withUserConfiguration(UserBeans.class).run((context) -> {
            assertThat(context.getBean(TimeSource.class)).isSameAs(context.getBean("userClock"));
            assertThat(context.getBean(IdempotencyStore.class)).isSameAs(context.getBean("userIdempotencyStore"));
            assertThat(context.getBean(DeadLetterStore.class)).isSameAs(context.getBean("userDeadLetterStore"));
        });
    }

    @Test
    void whenInterceptorOrderIsSetThenTheAdvisorTakesIt() {
        this.contextRunner.withPropertyValues("resilience.interceptor-order=42")
            .run((context) -> assertThat(context.getBean(ResilienceAdvisor.class).getOrder()).isEqualTo(42));
    }

    @Test
    void whenDeadLettersAreOffThenNoStoreExists() {
        this.contextRunner.withPropertyValues("resilience.dead-letter.store=none")
            .run((context) -> assertThat(context).doesNotHaveBean(DeadLetterStore.class));
    }

    @Test
    void whenPropertiesAreSetThenInMemoryStoresAreBoundedByThem() {
        this.contextRunner.withPropertyValues("resilience.dead-letter.capacity=3").run((context) -> {
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            for (int i = 0; i < 5; i++) {
                store.write(new dev.resilience.core.deadletter.DeadLetter("id-" + i, "n", "m", java.util.List.of(), "E",
                        null, 1, java.time.Instant.EPOCH, java.time.Instant.EPOCH,
                        dev.resilience.core.ExecutionStatus.ERROR));
            }
            assertThat(store.size()).isEqualTo(3);
        });
    }

    @Test
    void whenConfiguredInstancesAreUnusedTheyStillExistFromTheStart() {
        this.contextRunner
            .withPropertyValues("resilience.retry.instances.quotes.max-attempts=5",
                    "resilience.circuit-breaker.instances.quote-service.minimum-calls=7")
            .run((context) -> {
                ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
                assertThat(registry.retryPolicies().get("quotes").maxAttempts()).isEqualTo(5);
                assertThat(registry.circuitBreakers().get("quote-service").config().minimumCalls()).isEqualTo(7);
            });
    }

    @Test
    void whenAFallbackMethodDoesNotExistThenTheStartFailsNamingBeanMethodAndFix() {
        this.contextRunner.withBean("paymentService", MissingFallback.class).run((context) -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("paymentService", "MissingFallback#pay",
                    "@Fallback(\"payLater\")", "no method named 'payLater'");
            assertThat(analysis.getAction()).contains("String payLater(String)");
        });
    }

    @Test
    void whenAFallbackReturnsTheWrongTypeThenTheStartFailsSayingSo() {
        this.contextRunner.withBean("paymentService", IllTypedFallback.class).run((context) -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("IllTypedFallback#pay", "Integer", "not assignable to");
            assertThat(analysis.getAction()).contains("Make 'payLater' return String");
        });
    }

    @Test
    void whenAFallbackTakesOtherParametersThenTheStartFails() {
        this.contextRunner.withBean("paymentService", FallbackWithWrongParameters.class).run((context) -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("its parameters do not fit");
            assertThat(analysis.getAction()).contains("String payLater(String)", "trailing Throwable");
        });
    }

    @Test
    void whenAnIdempotencyKeyDoesNotParseThenTheStartFailsNamingTheExpression() {
        this.contextRunner.withBean("paymentService", UnparsableKey.class).run((context) -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("UnparsableKey#pay", "@Idempotent(key)", "#key +",
                    "not a valid SpEL expression");
        });
    }

    @Test
    void whenAnIdempotencyKeyNamesNoParameterThenTheStartFailsListingTheParameters() {
        this.contextRunner.withBean("paymentService", UnknownKeyParameter.class).run((context) -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("#idempotencyKey", "not a parameter");
            assertThat(analysis.getAction()).contains("#orderId", "#key", "#p0");
        });
    }

    @Test
    void whenAnAnnotationDurationIsMalformedThenTheStartFailsNamingTheAttribute() {
        this.contextRunner.withBean("paymentService", MalformedDelay.class).run((context) -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("MalformedDelay#pay", "@Retryable(delay)", "soon");
        });
    }

    private static FailureAnalysis analyze(Throwable failure) {
        assertThat(failure).isNotNull();
        FailureAnalysis analysis = new ResiliencePolicyFailureAnalyzer().analyze(failure);
        assertThat(analysis).as("failure analysis of %s", failure).isNotNull();
        return analysis;
    }

    @Configuration(proxyBeanMethods = false)
    static class UserBeans {

        @Bean
        VirtualTimeSource userClock() {
            return new VirtualTimeSource();
        }

        @Bean
        InMemoryIdempotencyStore userIdempotencyStore(TimeSource clock) {
            return new InMemoryIdempotencyStore(clock, 10);
        }

        @Bean
        InMemoryDeadLetterStore userDeadLetterStore() {
            return new InMemoryDeadLetterStore(5);
        }

    }

    static class MissingFallback {

        @Fallback("payLater")
        public String pay(String orderId) {
            return orderId;
        }

    }

    static class IllTypedFallback {

        @Fallback("payLater")
        public String pay(String orderId) {
            return orderId;
        }

        Integer payLater(String orderId) {
            return 0;
        }

    }

    static class FallbackWithWrongParameters {

        @Fallback("payLater")
        @CircuitGuarded
        public String pay(String orderId) {
            return orderId;
        }

        String payLater(long orderId) {
            return "later";
        }

    }

    static class UnparsableKey {

        @Idempotent(key = "#key +")
        public String pay(String orderId, String key) {
            return orderId;
        }

    }

    static class UnknownKeyParameter {

        @Idempotent(key = "#idempotencyKey")
        public String pay(String orderId, String key) {
            return orderId;
        }

    }

    static class MalformedDelay {

        @Retryable(delay = "soon")
        public String pay(String orderId) throws IOException {
            return orderId;
        }

    }

}
