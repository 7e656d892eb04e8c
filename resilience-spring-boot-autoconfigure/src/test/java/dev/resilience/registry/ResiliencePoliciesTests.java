package dev.resilience.registry;

import java.lang.annotation.Annotation;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The policies leave named breakers and retry instances to the registry, and resolve
 * idempotency policies through the registry's resolver.
 */
class ResiliencePoliciesTests {

    private final VirtualTimeSource time = new VirtualTimeSource();

    private final CountingPolicyResolver resolver = new CountingPolicyResolver();

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.time);

    private final ResilienceRegistry registry = new ResilienceRegistry(this.resolver, this.time);

    private final ResiliencePolicies policies = new ResiliencePolicies(this.registry, this.time, collaborators(),
            ArgumentRenderer.TO_STRING, 1024);

    @Test
    void idempotencyPoliciesAreResolvedByTheRegistrysResolverOnTheStore() {
        Idempotent annotation = Annotated.annotation("idempotent", Idempotent.class);

        IdempotencyPolicy policy = this.policies.idempotency("pay-key", annotation);

        assertThat(policy.name()).isEqualTo("pay-key");
        assertThat(policy.store()).isSameAs(this.store);
        assertThat(this.resolver.idempotencyCalls()).containsExactly("pay-key");
    }

    @Test
    @SuppressWarnings("removal")
    void deprecatedNamedInstanceMethodsReturnTheRegistrysInstancesResolvedOnce() {
        CircuitGuarded guarded = Annotated.annotation("guarded", CircuitGuarded.class);
        Retryable retryable = Annotated.annotation("retried", Retryable.class);

        assertThat(this.policies.circuitBreaker("gateway", guarded)).isSameAs(this.registry.circuitBreaker("gateway"));
        assertThat(this.policies.retry("payment", retryable)).isSameAs(this.registry.retry("payment"));
        assertThat(this.policies.sharedRetry("payment")).isSameAs(this.registry.retry("payment"));
        assertThat(this.resolver.circuitBreakerCalls("gateway")).containsExactly(guarded);
        assertThat(this.resolver.retryCalls("payment")).containsExactly(retryable);
    }

    @Test
    void pipelineListensWithTheStatisticsOfItsNameInTheRegistry() {
        this.policies.pipeline("payment").build();

        assertThat(this.registry.statistics()).containsOnlyKeys("payment");
    }

    private ResiliencePolicies.Collaborators collaborators() {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        beans.registerSingleton("idempotencyStore", this.store);
        return new ResiliencePolicies.Collaborators(beans.getBeanProvider(IdempotencyStore.class),
                beans.getBeanProvider(DeadLetterStore.class), beans.getBeanProvider(ExecutionListener.class), null);
    }

    static class Annotated {

        @CircuitGuarded("gateway")
        void guarded() {
        }

        @Retryable(value = "payment", maxAttempts = 4)
        void retried() {
        }

        @Idempotent(key = "#key", name = "pay-key")
        void idempotent() {
        }

        static <A extends Annotation> A annotation(String method, Class<A> type) {
            try {
                return Annotated.class.getDeclaredMethod(method).getAnnotation(type);
            }
            catch (NoSuchMethodException ex) {
                throw new IllegalStateException(ex);
            }
        }

    }

}
