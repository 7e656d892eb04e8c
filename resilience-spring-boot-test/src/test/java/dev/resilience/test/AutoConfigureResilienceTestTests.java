package dev.resilience.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.resilience.actuate.endpoint.CircuitBreakersEndpoint;
import dev.resilience.actuate.endpoint.CircuitBreakersEndpoint.CircuitBreakerDescriptor;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.time.TimeSource;
import dev.resilience.registry.ResilienceRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link AutoConfigureResilienceTest} on a {@code @SpringBootTest}: the engine on the
 * virtual clock, and what a reset leaves the meters, the endpoint and the stores.
 */
@SpringBootTest(classes = ResilienceTestApplication.class)
@AutoConfigureResilienceTest
class AutoConfigureResilienceTestTests {

    @Autowired
    Gateway gateway;

    @Autowired
    ResilienceClock clock;

    @Autowired
    ResilienceReset reset;

    @Autowired
    ResilienceRegistry registry;

    @Autowired
    TimeSource timeSource;

    @Autowired
    MeterRegistry meters;

    @Autowired
    CircuitBreakersEndpoint endpoint;

    @Autowired
    DeadLetterStore deadLetters;

    @Test
    void theEngineReadsTheVirtualClockOfTheResilienceClock() {
        assertThat(this.timeSource).isSameAs(this.clock.timeSource());
    }

    @Test
    void advancingTheClockMovesAnOpenBreakerToHalfOpenWithoutWaiting() {
        assertThatIllegalStateException().isThrownBy(() -> this.gateway.probe(true));
        assertThatIllegalStateException().isThrownBy(() -> this.gateway.probe(true));
        CircuitBreaker breaker = this.registry.findCircuitBreaker("timed").orElseThrow();
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        this.clock.advance(Duration.ofSeconds(29));
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
        this.clock.advance(Duration.ofSeconds(1));
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
        assertThat(this.gateway.probe(false)).isEqualTo("probed");
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
    }

    @Test
    void aRetryWithMinutesOfBackoffEndsAtOnceOnTheVirtualClock() {
        this.gateway.failNext(3);
        int attemptsBefore = this.gateway.attempts();
        Duration virtualStart = this.clock.elapsed();
        long wallStart = System.nanoTime();
        assertThat(this.gateway.patiently()).isEqualTo("done");
        assertThat(this.gateway.attempts() - attemptsBefore).isEqualTo(4);
        assertThat(this.clock.elapsed().minus(virtualStart)).isEqualTo(Duration.ofMinutes(7));
        List<Duration> sleeps = this.clock.timeSource().sleeps();
        assertThat(sleeps.subList(sleeps.size() - 3, sleeps.size())).containsExactly(Duration.ofMinutes(1),
                Duration.ofMinutes(2), Duration.ofMinutes(4));
        assertThat(Duration.ofNanos(System.nanoTime() - wallStart)).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void anAsynchronousRetryWithMinutesOfBackoffEndsWhenTheClockAwaitsIt() {
        this.gateway.failNext(3);
        int attemptsBefore = this.gateway.attempts();
        Duration virtualStart = this.clock.elapsed();
        CompletableFuture<String> call = this.gateway.patientlyAsync();
        assertThat(call).isNotDone();
        assertThat(this.clock.await(call)).isEqualTo("done");
        assertThat(this.gateway.attempts() - attemptsBefore).isEqualTo(4);
        assertThat(this.clock.elapsed().minus(virtualStart)).isEqualTo(Duration.ofMinutes(7));
    }

    @Test
    void afterAResetTheStateGaugeAndTheEndpointReportTheBreakerClosedAndCountersKeepCounting() {
        assertThatIllegalStateException().isThrownBy(() -> this.gateway.charge(true));
        assertThatIllegalStateException().isThrownBy(() -> this.gateway.charge(true));
        assertThat(stateGauge("open")).isEqualTo(1.0);
        assertThat(gatewayDescriptor().state()).isEqualTo("OPEN");
        double failedCalls = this.meters.get("resilience.circuitbreaker.calls")
            .tag("name", "gateway")
            .tag("kind", "failed")
            .functionCounter()
            .count();
        this.reset.reset();
        assertThat(stateGauge("open")).isZero();
        assertThat(stateGauge("closed")).isEqualTo(1.0);
        CircuitBreakerDescriptor descriptor = gatewayDescriptor();
        assertThat(descriptor.state()).isEqualTo("CLOSED");
        assertThat(descriptor.bufferedCalls()).isZero();
        assertThat(descriptor.failedCalls()).isZero();
        assertThat(descriptor.failureRate()).isEqualTo(-1.0f);
        assertThat(this.meters.get("resilience.circuitbreaker.calls")
            .tag("name", "gateway")
            .tag("kind", "failed")
            .functionCounter()
            .count()).isEqualTo(failedCalls);
    }

    @Test
    void aResetClearsAForcedState() {
        CircuitBreaker breaker = this.registry.findCircuitBreaker("gateway").orElseThrow();
        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        this.reset.reset();
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
        breaker.transitionTo(CircuitBreakerState.DISABLED);
        this.reset.reset();
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.CLOSED);
    }

    @Test
    void aResetEmptiesTheMemoryDeadLetterStore() {
        assertThatIllegalStateException().isThrownBy(this.gateway::budgeted);
        assertThat(this.deadLetters.size()).isOne();
        this.reset.reset();
        assertThat(this.deadLetters.size()).isZero();
    }

    private double stateGauge(String state) {
        return this.meters.get("resilience.circuitbreaker.state")
            .tag("name", "gateway")
            .tag("state", state)
            .gauge()
            .value();
    }

    private CircuitBreakerDescriptor gatewayDescriptor() {
        return this.endpoint.circuitBreakers().circuitBreakers().get("gateway");
    }

}
