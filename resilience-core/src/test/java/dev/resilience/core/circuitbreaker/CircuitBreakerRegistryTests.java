package dev.resilience.core.circuitbreaker;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

@SuppressWarnings("removal")
class CircuitBreakerRegistryTests {

    private final CircuitBreakerRegistry registry = new CircuitBreakerRegistry(new VirtualTimeSource());

    @Test
    void returnsTheSameBreakerForTheSameName() {
        CircuitBreaker first = this.registry.breaker("payment-gateway", CircuitBreakerConfig.ofDefaults());
        CircuitBreaker second = this.registry.breaker("payment-gateway",
                CircuitBreakerConfig.builder().minimumCalls(3).build());

        assertThat(second).isSameAs(first);
        assertThat(second.config().minimumCalls()).isEqualTo(CircuitBreakerConfig.DEFAULT_MINIMUM_CALLS);
        assertThat(this.registry.find("payment-gateway")).containsSame(first);
    }

    @Test
    void findsNothingForAnUnknownName() {
        assertThat(this.registry.find("unknown")).isEmpty();
    }

    @Test
    void listsAllBreakersSortedByName() {
        this.registry.breaker("prices", CircuitBreakerConfig.ofDefaults());
        this.registry.breaker("backup-gateway", CircuitBreakerConfig.ofDefaults());
        this.registry.breaker("payment-gateway", CircuitBreakerConfig.ofDefaults());

        assertThat(this.registry.all()).extracting(CircuitBreaker::name)
            .containsExactly("backup-gateway", "payment-gateway", "prices");
    }

}
