package dev.resilience.feature;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.CountingPolicyResolver;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link CircuitBreakers} answers for each state of a registry's breaker, on a virtual
 * clock, without taking a permit or moving the breaker, and refuses a name without one.
 */
class CircuitBreakersTests {

    private static final Duration WAIT_IN_OPEN = Duration.ofSeconds(30);

    private static final int PROBES = 2;

    private static final long FAST = Duration.ofMillis(5).toNanos();

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final ResilienceRegistry registry = new ResilienceRegistry(
            new CountingPolicyResolver(Set.of(), Set.of("price-oracle", "payment-gateway"))
                .circuitBreakerConfig(CircuitBreakerConfig.builder()
                    .slidingWindowSize(4)
                    .minimumCalls(4)
                    .waitInOpen(WAIT_IN_OPEN)
                    .halfOpenCalls(PROBES)
                    .build()),
            this.clock);

    private final CircuitBreakers circuitBreakers = new CircuitBreakers(this.registry);

    private final CircuitBreaker breaker;

    CircuitBreakersTests() {
        this.registry.createConfiguredInstances();
        this.breaker = this.registry.findCircuitBreaker("price-oracle").orElseThrow();
    }

    @Test
    void closedBreakerAllows() {
        assertThat(this.circuitBreakers.allows("price-oracle")).isTrue();
        assertThat(this.circuitBreakers.state("price-oracle")).isEqualTo(CircuitBreakerState.CLOSED);
    }

    @Test
    void openBreakerRefusesWhileItWaits() {
        open();
        this.clock.advance(WAIT_IN_OPEN.minusNanos(1));

        assertThat(this.circuitBreakers.allows("price-oracle")).isFalse();
        assertThat(this.circuitBreakers.state("price-oracle")).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(this.circuitBreakers.allows("payment-gateway")).isTrue();
    }

    @Test
    void openBreakerWhoseWaitIsOverAllowsAndStaysOpenWithAllItsProbes() {
        open();
        this.clock.advance(WAIT_IN_OPEN);

        for (int i = 0; i < 1000; i++) {
            assertThat(this.circuitBreakers.allows("price-oracle")).isTrue();
        }
        assertThat(this.circuitBreakers.state("price-oracle")).isEqualTo(CircuitBreakerState.OPEN);
        assertThat(this.breaker.metrics().notPermittedCallsTotal()).isZero();
        assertAdmitsExactly(PROBES);
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
    }

    @Test
    void halfOpenBreakerAllowsWhileAProbeIsLeftAndAskingTakesNone() {
        open();
        this.clock.advance(WAIT_IN_OPEN);
        this.breaker.acquirePermit();

        for (int i = 0; i < 1000; i++) {
            assertThat(this.circuitBreakers.allows("price-oracle")).isTrue();
        }
        assertThat(this.circuitBreakers.state("price-oracle")).isEqualTo(CircuitBreakerState.HALF_OPEN);
        assertAdmitsExactly(PROBES - 1);
        assertThat(this.circuitBreakers.allows("price-oracle")).isFalse();
        assertThat(this.circuitBreakers.state("price-oracle")).isEqualTo(CircuitBreakerState.HALF_OPEN);
    }

    @Test
    void forcedOpenBreakerRefusesAndDisabledOneAllows() {
        this.breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        this.clock.advance(WAIT_IN_OPEN.multipliedBy(10));
        assertThat(this.circuitBreakers.allows("price-oracle")).isFalse();
        assertThat(this.circuitBreakers.state("price-oracle")).isEqualTo(CircuitBreakerState.FORCED_OPEN);

        this.breaker.transitionTo(CircuitBreakerState.DISABLED);
        assertThat(this.circuitBreakers.allows("price-oracle")).isTrue();
        assertThat(this.circuitBreakers.state("price-oracle")).isEqualTo(CircuitBreakerState.DISABLED);
    }

    @Test
    void nameWithoutBreakerIsRefusedNamingTheBreakersAndCreatesNone() {
        assertThatIllegalArgumentException().isThrownBy(() -> this.circuitBreakers.allows("price-orcale"))
            .withMessage("No circuit breaker is named 'price-orcale'; "
                    + "the circuit breakers are [payment-gateway, price-oracle]");
        assertThatIllegalArgumentException().isThrownBy(() -> this.circuitBreakers.state("price-orcale"))
            .withMessageContaining("'price-orcale'");
        assertThat(this.registry.circuitBreakers()).containsOnlyKeys("payment-gateway", "price-oracle");
    }

    private void open() {
        for (int i = 0; i < 4; i++) {
            CircuitBreaker.Permit permit = this.breaker.acquirePermit();
            this.breaker.onError(permit, FAST, new IOException("oracle down"));
        }
        assertThat(this.breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

    private void assertAdmitsExactly(int probes) {
        for (int i = 0; i < probes; i++) {
            this.breaker.acquirePermit();
        }
        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(this.breaker::acquirePermit);
    }

}
