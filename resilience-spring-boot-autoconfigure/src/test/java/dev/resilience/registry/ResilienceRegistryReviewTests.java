package dev.resilience.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.core.ExecutionListener;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

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

    @Test
    @SuppressWarnings("removal")
    void deprecatedConstructorRefusesAResolverOtherThanTheRegistrys() {
        CountingPolicyResolver own = new CountingPolicyResolver();

        assertThatIllegalArgumentException()
            .isThrownBy(() -> new ResiliencePolicies(own, this.registry, this.time, collaborators(),
                    ArgumentRenderer.TO_STRING, 1024))
            .withMessageContaining("create the ResilienceRegistry with this resolver");
        assertThat(own.retryCalls("payment")).isEmpty();
    }

    private ResiliencePolicies.Collaborators collaborators() {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        return new ResiliencePolicies.Collaborators(beans.getBeanProvider(IdempotencyStore.class),
                beans.getBeanProvider(DeadLetterStore.class), beans.getBeanProvider(ExecutionListener.class), null);
    }

}
