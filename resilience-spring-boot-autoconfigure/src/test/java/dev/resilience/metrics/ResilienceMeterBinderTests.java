package dev.resilience.metrics;

import java.util.List;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.CallStatistics;
import dev.resilience.registry.CountingPolicyResolver;
import dev.resilience.registry.ResilienceRegistry;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The meters bound for statistics and breakers: present from the start, reading the one
 * source of counts, registered once, and the same timers as the observation handler's.
 */
class ResilienceMeterBinderTests {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private final ResilienceRegistry registry = new ResilienceRegistry(new CountingPolicyResolver(),
            new VirtualTimeSource());

    private final ResilienceMeterBinder binder = new ResilienceMeterBinder(this.registry, this.meters);

    @Test
    void statisticsMetersExistAtZeroAndReadTheStatistics() {
        this.registry.retry("payment");
        CallStatistics payment = this.registry.statistics("payment");
        this.binder.afterSingletonsInstantiated();

        assertThat(this.meters.get("resilience.retries").tag("name", "payment").functionCounter().count()).isZero();
        assertThat(this.meters.get("resilience.calls").tag("name", "payment").timers()).hasSize(6);
        payment.onRetry("payment", null);
        payment.onBudgetRefused("payment");
        payment.onDeadLetter(null);

        assertThat(this.meters.get("resilience.retries").tag("name", "payment").functionCounter().count()).isOne();
        assertThat(this.meters.get("resilience.retry.budget.refused").functionCounter().count()).isOne();
        assertThat(this.meters.get("resilience.deadletters").functionCounter().count()).isOne();
    }

    @Test
    void operationWithoutARetryInstanceHasCallTimersButNoRetryOrDeadLetterCounters() {
        this.binder.afterSingletonsInstantiated();
        this.registry.statistics("backup-gateway");

        assertThat(this.meters.get("resilience.calls").tag("name", "backup-gateway").timers()).hasSize(6);
        assertThat(this.meters.find("resilience.retries").meters()).isEmpty();
        assertThat(this.meters.find("resilience.retry.budget.refused").meters()).isEmpty();
        assertThat(this.meters.find("resilience.deadletters").meters()).isEmpty();
    }

    @Test
    void retryInstanceCreatedAfterItsStatisticsGetsItsCountersOnce() {
        this.binder.afterSingletonsInstantiated();
        CallStatistics quotes = this.registry.statistics("quotes");
        this.registry.retry("quotes");
        this.registry.retry("quotes");
        quotes.onRetry("quotes", null);

        assertThat(this.meters.find("resilience.retries").meters()).hasSize(1);
        assertThat(this.meters.get("resilience.retries").tag("name", "quotes").functionCounter().count()).isOne();
        assertThat(this.meters.get("resilience.deadletters").tag("name", "quotes").functionCounter().count()).isZero();
    }

    @Test
    void fallbackAndIdempotencyNamesMadeKnownLaterAreBoundOnceOnRescan() {
        this.binder.afterSingletonsInstantiated();
        CallStatistics payment = this.registry.statistics("payment");
        payment.registerFallback("payLater");
        payment.registerIdempotency("pay-key");
        assertThat(this.meters.find("resilience.fallbacks").meters()).isEmpty();

        this.binder.bindNewNames();
        this.binder.bindNewNames();
        payment.onFallback("payment", "payLater", true);
        payment.onIdempotency("pay-key", IdempotencyOutcome.REPLAYED);

        assertThat(this.meters.find("resilience.fallbacks").meters()).hasSize(2);
        assertThat(this.meters.get("resilience.fallbacks")
            .tags("name", "payment", "fallback", "payLater", "outcome", "success")
            .functionCounter()
            .count()).isOne();
        assertThat(this.meters.find("resilience.idempotency.requests").meters())
            .extracting((meter) -> meter.getId().getTag("outcome"))
            .containsExactlyInAnyOrder("executed", "replayed", "in_progress", "mismatch", "store_error", "unavailable",
                    "complete_failed");
        assertThat(this.meters.get("resilience.idempotency.requests")
            .tags("name", "pay-key", "outcome", "replayed")
            .functionCounter()
            .count()).isOne();
    }

    @Test
    void breakerMetersFollowItsStateTotalsAndTransitions() {
        this.binder.afterSingletonsInstantiated();
        CircuitBreaker breaker = this.registry.circuitBreaker("gateway");

        assertThat(stateGauge("closed")).isOne();
        assertThat(stateGauge("forced_open")).isZero();
        assertThat(this.meters.get("resilience.circuitbreaker.failure.rate").gauge().value()).isEqualTo(-1);

        breaker.onError(breaker.acquirePermit(), 0, new IllegalStateException());
        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(breaker::acquirePermit);

        assertThat(stateGauge("closed")).isZero();
        assertThat(stateGauge("forced_open")).isOne();
        assertThat(breakerCalls("failed")).isOne();
        assertThat(breakerCalls("not_permitted")).isOne();
        assertThat(breakerCalls("successful")).isZero();
        assertThat(this.meters.get("resilience.circuitbreaker.transitions")
            .tags("name", "gateway", "from", "closed", "to", "forced_open")
            .counter()
            .count()).isOne();
    }

    @Test
    void joiningTwiceRegistersEveryMeterOnce() {
        this.registry.statistics("payment").registerFallback("payLater");
        this.registry.circuitBreaker("gateway");
        this.binder.afterSingletonsInstantiated();
        List<Meter> first = this.meters.getMeters();

        this.binder.afterSingletonsInstantiated();
        this.binder.bindNewNames();

        assertThat(this.meters.getMeters()).hasSameSizeAs(first);
        CircuitBreaker breaker = this.registry.findCircuitBreaker("gateway").orElseThrow();
        breaker.transitionTo(CircuitBreakerState.DISABLED);
        assertThat(this.meters.get("resilience.circuitbreaker.transitions").counter().count()).isOne();
    }

    @Test
    void preRegisteredTimersAreTheOnesTheObservationHandlerUpdates() {
        this.registry.statistics("payment");
        this.binder.afterSingletonsInstantiated();
        this.meters.config().meterFilter(new ResilienceCallsMeterFilter());
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(this.meters));

        Observation observation = Observation.start("resilience.calls", observations)
            .lowCardinalityKeyValue("name", "payment");
        observation.event(Observation.Event.of("retry"));
        observation.event(Observation.Event.of("fallback"));
        observation.lowCardinalityKeyValue("status", "success").lowCardinalityKeyValue("fallback", "false").stop();
        Observation.start("resilience.calls", observations)
            .lowCardinalityKeyValue("name", "payment")
            .lowCardinalityKeyValue("status", "error")
            .lowCardinalityKeyValue("fallback", "false")
            .error(new java.io.IOException("down"))
            .stop();

        assertThat(this.meters.get("resilience.calls").timers()).hasSize(6)
            .allSatisfy((timer) -> assertThat(timer.getId().getTag("error")).isNull());
        assertThat(this.meters.get("resilience.calls")
            .tags("name", "payment", "status", "error", "fallback", "false")
            .timer()
            .count()).isOne();
        assertThat(this.meters.get("resilience.calls")
            .tags("name", "payment", "status", "success", "fallback", "false")
            .timer()
            .count()).isOne();
        assertThat(this.meters.find("resilience.calls.retry").meters()).isEmpty();
        assertThat(this.meters.find("resilience.calls.fallback").meters()).isEmpty();
        assertThat(this.meters.find("resilience.calls.active").meters()).isEmpty();
    }

    private double stateGauge(String state) {
        return this.meters.get("resilience.circuitbreaker.state")
            .tags("name", "gateway", "state", state)
            .gauge()
            .value();
    }

    private double breakerCalls(String kind) {
        return this.meters.get("resilience.circuitbreaker.calls")
            .tags("name", "gateway", "kind", kind)
            .functionCounter()
            .count();
    }

}
