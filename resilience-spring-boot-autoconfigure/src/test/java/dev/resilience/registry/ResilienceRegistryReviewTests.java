package dev.resilience.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerRegistry;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * Review of the one registry of named instances: what a throwing listener, a re-entrant
 * configuration supplier and the deprecated entry points do.
 */
class ResilienceRegistryReviewTests {

    private final VirtualTimeSource time = new VirtualTimeSource();

    private final CountingPolicyResolver resolver = new CountingPolicyResolver();

    private final ResilienceRegistry registry = new ResilienceRegistry(this.resolver, this.time);

    /**
     * RegistryListener: "Told once of every instance a ResilienceRegistry holds". A
     * listener that throws while hearing of a breaker leaves the breaker registered, and
     * the listeners after it are never told of it: the first request fails, every later
     * one returns the breaker without announcing it again. Meters and events (the
     * listeners of the auto-configuration) are then missing for that breaker for good.
     */
    @Test
    void listenerThatThrowsKeepsNoOtherListenerFromHearingOfTheBreaker() {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        this.registry.addListener(new RegistryListener() {
            @Override
            public void onCircuitBreaker(CircuitBreaker circuitBreaker) {
                if (failOnce.getAndSet(false)) {
                    throw new IllegalStateException("meter registry closed");
                }
            }
        });
        List<String> heard = new ArrayList<>();
        this.registry.addListener(new RegistryListener() {
            @Override
            public void onCircuitBreaker(CircuitBreaker circuitBreaker) {
                heard.add(circuitBreaker.name());
            }
        });

        try {
            this.registry.circuitBreaker("http-client:api.example.com");
        }
        catch (IllegalStateException ex) {
            // the first request hears the listener's failure
        }
        CircuitBreaker breaker = this.registry.circuitBreaker("http-client:api.example.com");

        assertThat(this.registry.findCircuitBreaker("http-client:api.example.com")).containsSame(breaker);
        assertThat(heard).as("breakers the second listener heard of").containsExactly(breaker.name());
    }

    /**
     * The deprecated {@code circuitBreaker(String, Supplier)} ran its supplier outside
     * any lock before; it now runs inside the breakers map's computeIfAbsent. A supplier
     * that asks the registry for another breaker whose name falls in the same bin ("a"
     * and "q" both hash to bin 1 of the initial table) fails with "Recursive update".
     */
    @Test
    @SuppressWarnings("removal")
    void deprecatedSupplierMayAskTheRegistryForAnotherBreaker() {
        assertThatCode(() -> this.registry.circuitBreaker("a", () -> {
            CircuitBreaker other = this.registry.circuitBreaker("q", CircuitBreakerConfig::ofDefaults);
            return other.config();
        })).doesNotThrowAnyException();
        assertThat(this.registry.circuitBreakers()).containsOnlyKeys("a", "q");
    }

    /**
     * The deprecated constructor still takes a PolicyResolver and documents it as the
     * resolver of the policies; before the change it resolved every named breaker and
     * retry instance. Now it is silently ignored for them: the registry's own resolver
     * answers, so a caller of the deprecated constructor gets other policies than before.
     */
    @Test
    @SuppressWarnings("removal")
    void deprecatedConstructorsResolverStillResolvesRetryInstancesAndBreakers() {
        CountingPolicyResolver own = new CountingPolicyResolver();
        ResiliencePolicies policies = new ResiliencePolicies(own, this.registry, this.time, collaborators(),
                ArgumentRenderer.TO_STRING, 1024);

        policies.retry("payment", (Retryable) null);
        policies.circuitBreaker("gateway", null);

        assertThat(own.retryCalls("payment")).as("retry resolutions by the resolver passed in").hasSize(1);
        assertThat(own.circuitBreakerCalls("gateway")).as("breaker resolutions by the resolver passed in").hasSize(1);
    }

    /**
     * {@code ResilienceRegistry(CircuitBreakerRegistry)} was public and is gone without a
     * deprecation: an application that built its own registry bean no longer compiles or
     * links (NoSuchMethodError), against "deprecate before removing, as a library does".
     */
    @Test
    @SuppressWarnings("removal")
    void constructorOverABreakerRegistryIsKeptDeprecated() {
        assertThatCode(() -> ResilienceRegistry.class.getConstructor(CircuitBreakerRegistry.class))
            .doesNotThrowAnyException();
    }

    private ResiliencePolicies.Collaborators collaborators() {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        return new ResiliencePolicies.Collaborators(beans.getBeanProvider(IdempotencyStore.class),
                beans.getBeanProvider(DeadLetterStore.class), beans.getBeanProvider(ExecutionListener.class), null);
    }

}
