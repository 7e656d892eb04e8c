package dev.resilience.metrics;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

import dev.resilience.aop.CallObserver;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerListener;
import dev.resilience.core.circuitbreaker.CircuitBreakerMetrics;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.circuitbreaker.CircuitBreakerTransition;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.registry.CallStatistics;
import dev.resilience.registry.HedgingInstance;
import dev.resilience.registry.RegistryListener;
import dev.resilience.registry.ResilienceRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;

/**
 * Binds the meters of every named instance of a {@link ResilienceRegistry}, from the
 * start: the counters over each {@link CallStatistics} (those of retries, refused retries
 * and dead letters only for the name of a retry instance, one meter per concept and no
 * retry counter for an operation that never retries), the gauges and counters of each
 * circuit breaker, bulkhead and rate limiter, the hedge counters of each hedging
 * instance, and the {@code resilience.calls} timers that the observation of each call
 * updates, pre-registered with the observation's low-cardinality keys, the tags they keep
 * once {@link ResilienceCallsMeterFilter} has dropped the handler's {@code error} tag, so
 * that they are the same meters.
 *
 * <p>
 * Counters read the statistics, breakers, bulkheads and rate limiters, which stay the one
 * source of the counts. Fallback methods and idempotency names may be made known to a
 * statistics after it was announced; they are bound when the registry announces the
 * statistics, when the context has been refreshed (every annotated method is compiled by
 * then) and whenever {@link #bindNewNames()} is called. Every meter is registered once.
 * Thread-safe.
 */
public final class ResilienceMeterBinder
        implements RegistryListener, SmartInitializingSingleton, ApplicationListener<ContextRefreshedEvent> {

    /** The timer of protected calls, updated by the observation of each call. */
    public static final String CALLS = CallObserver.OBSERVATION_NAME;

    /** The counter of retries. */
    public static final String RETRIES = "resilience.retries";

    /** The counter of retries the budget refused. */
    public static final String BUDGET_REFUSED = "resilience.retry.budget.refused";

    /** The counter of fallback methods tried, by method and outcome. */
    public static final String FALLBACKS = "resilience.fallbacks";

    /** The gauge of a breaker's state, 1 for the current state and 0 for the others. */
    public static final String CIRCUIT_BREAKER_STATE = "resilience.circuitbreaker.state";

    /** The counter of the calls a breaker recorded or rejected, by kind. */
    public static final String CIRCUIT_BREAKER_CALLS = "resilience.circuitbreaker.calls";

    /** The gauge of a breaker's failure rate in percent, -1 until the minimum calls. */
    public static final String CIRCUIT_BREAKER_FAILURE_RATE = "resilience.circuitbreaker.failure.rate";

    /** The counter of a breaker's state transitions. */
    public static final String CIRCUIT_BREAKER_TRANSITIONS = "resilience.circuitbreaker.transitions";

    /** The counter of idempotency decisions, by outcome. */
    public static final String IDEMPOTENCY_REQUESTS = "resilience.idempotency.requests";

    /** The counter of dead letters written. */
    public static final String DEAD_LETTERS = "resilience.deadletters";

    /** The counter of the calls a bulkhead permitted or rejected, by outcome. */
    public static final String BULKHEAD_CALLS = "resilience.bulkhead.calls";

    /** The gauge of the calls running in a bulkhead. */
    public static final String BULKHEAD_CONCURRENT = "resilience.bulkhead.concurrent";

    /** The gauge of a bulkhead's current limit of concurrent calls. */
    public static final String BULKHEAD_LIMIT = "resilience.bulkhead.limit";

    /** The counter of the calls a rate limiter permitted or rejected, by outcome. */
    public static final String RATE_LIMITER_CALLS = "resilience.ratelimiter.calls";

    /** The gauge of the permits a rate limiter has free now. */
    public static final String RATE_LIMITER_AVAILABLE = "resilience.ratelimiter.available";

    /** The counter of the hedges started, by whether they won their race. */
    public static final String HEDGES = "resilience.hedges";

    private final ResilienceRegistry registry;

    private final MeterRegistry meterRegistry;

    private final Set<String> bound = ConcurrentHashMap.newKeySet();

    /**
     * Creates a binder.
     * @param registry the instances to bind meters for
     * @param meterRegistry where the meters are registered
     */
    public ResilienceMeterBinder(ResilienceRegistry registry, MeterRegistry meterRegistry) {
        this.registry = registry;
        this.meterRegistry = meterRegistry;
    }

    /**
     * Joins the registry, which tells this of every instance that exists and of every one
     * created later.
     */
    @Override
    public void afterSingletonsInstantiated() {
        this.registry.addListener(this);
    }

    /**
     * Binds the fallback and idempotency names made known since the last time.
     * @param event the refresh of the application context
     */
    @Override
    public void onApplicationEvent(ContextRefreshedEvent event) {
        bindNewNames();
    }

    /**
     * Binds the meters of the fallback methods and idempotency names that the registry's
     * statistics have been told of since they were last bound.
     */
    public void bindNewNames() {
        this.registry.statistics().values().forEach(this::bindNames);
    }

    /**
     * Binds an instance's call timers and counters.
     * @param statistics the instance's statistics
     */
    @Override
    public void onStatistics(CallStatistics statistics) {
        String name = statistics.name();
        if (this.bound.add("statistics/" + name)) {
            for (ExecutionStatus status : ExecutionStatus.values()) {
                callTimer(name, status, false);
            }
            callTimer(name, ExecutionStatus.SUCCESS, true);
        }
        bindNames(statistics);
    }

    /**
     * Binds a retry instance's counters of retries, refused retries and dead letters,
     * which a protected operation without a retry policy never has.
     * @param statistics the statistics of the retry instance's name
     */
    @Override
    public void onRetry(CallStatistics statistics) {
        String name = statistics.name();
        if (this.bound.add("retries/" + name)) {
            counter(RETRIES, "Retries made", Tags.of("name", name), statistics, CallStatistics::retries);
            counter(BUDGET_REFUSED, "Retries the retry budget refused", Tags.of("name", name), statistics,
                    CallStatistics::budgetRefused);
            counter(DEAD_LETTERS, "Dead letters written", Tags.of("name", name), statistics,
                    CallStatistics::deadLetters);
        }
    }

    /**
     * Binds a breaker's state and failure-rate gauges and call counters, and starts
     * counting its transitions.
     * @param circuitBreaker the breaker
     */
    @Override
    public void onCircuitBreaker(CircuitBreaker circuitBreaker) {
        String name = circuitBreaker.name();
        if (!this.bound.add("circuitbreaker/" + name)) {
            return;
        }
        for (CircuitBreakerState state : CircuitBreakerState.values()) {
            Gauge.builder(CIRCUIT_BREAKER_STATE, circuitBreaker, (breaker) -> (breaker.state() == state) ? 1 : 0)
                .description("1 for the circuit breaker's current state, 0 for the others")
                .tags("name", name, "state", tagValue(state))
                .register(this.meterRegistry);
        }
        breakerCalls(circuitBreaker, "successful", CircuitBreakerMetrics::successfulCallsTotal);
        breakerCalls(circuitBreaker, "failed", CircuitBreakerMetrics::failedCallsTotal);
        breakerCalls(circuitBreaker, "slow", CircuitBreakerMetrics::slowCallsTotal);
        breakerCalls(circuitBreaker, "ignored", CircuitBreakerMetrics::ignoredCallsTotal);
        breakerCalls(circuitBreaker, "not_permitted", CircuitBreakerMetrics::notPermittedCallsTotal);
        Gauge.builder(CIRCUIT_BREAKER_FAILURE_RATE, circuitBreaker, (breaker) -> breaker.metrics().failureRate())
            .description("Failure rate in the circuit breaker's window, in percent; -1 until the minimum calls")
            .tags("name", name)
            .register(this.meterRegistry);
        circuitBreaker.addListener(new TransitionCounter());
    }

    /**
     * Binds a bulkhead's call counters and its concurrency and limit gauges.
     * @param bulkhead the bulkhead
     */
    @Override
    public void onBulkhead(Bulkhead bulkhead) {
        String name = bulkhead.name();
        if (!this.bound.add("bulkhead/" + name)) {
            return;
        }
        counter(BULKHEAD_CALLS, "Calls the bulkhead permitted or rejected",
                Tags.of("name", name, "outcome", "permitted"), bulkhead, Bulkhead::permittedCalls);
        counter(BULKHEAD_CALLS, "Calls the bulkhead permitted or rejected",
                Tags.of("name", name, "outcome", "rejected"), bulkhead, Bulkhead::rejectedCalls);
        Gauge.builder(BULKHEAD_CONCURRENT, bulkhead, Bulkhead::concurrentCalls)
            .description("Calls running in the bulkhead")
            .tags("name", name)
            .register(this.meterRegistry);
        Gauge.builder(BULKHEAD_LIMIT, bulkhead, Bulkhead::limit)
            .description("The bulkhead's current limit of concurrent calls")
            .tags("name", name)
            .register(this.meterRegistry);
    }

    /**
     * Binds a rate limiter's call counters and its gauge of free permits.
     * @param rateLimiter the rate limiter
     */
    @Override
    public void onRateLimiter(RateLimiter rateLimiter) {
        String name = rateLimiter.name();
        if (!this.bound.add("ratelimiter/" + name)) {
            return;
        }
        counter(RATE_LIMITER_CALLS, "Calls the rate limiter permitted or rejected",
                Tags.of("name", name, "outcome", "permitted"), rateLimiter, RateLimiter::permittedCalls);
        counter(RATE_LIMITER_CALLS, "Calls the rate limiter permitted or rejected",
                Tags.of("name", name, "outcome", "rejected"), rateLimiter, RateLimiter::rejectedCalls);
        Gauge.builder(RATE_LIMITER_AVAILABLE, rateLimiter, RateLimiter::availablePermits)
            .description("Permits the rate limiter has free now")
            .tags("name", name)
            .register(this.meterRegistry);
    }

    /**
     * Binds a hedging instance's counters of hedges won and lost.
     * @param hedging the hedging instance
     */
    @Override
    public void onHedging(HedgingInstance hedging) {
        String name = hedging.name();
        if (!this.bound.add("hedging/" + name)) {
            return;
        }
        counter(HEDGES, "Hedges started, by whether they won their race", Tags.of("name", name, "outcome", "won"),
                hedging, HedgingInstance::won);
        counter(HEDGES, "Hedges started, by whether they won their race", Tags.of("name", name, "outcome", "lost"),
                hedging, HedgingInstance::lost);
    }

    private void bindNames(CallStatistics statistics) {
        String name = statistics.name();
        for (String fallback : statistics.fallbackNames()) {
            if (this.bound.add("fallback/" + name + "/" + fallback)) {
                for (boolean success : new boolean[] { true, false }) {
                    counter(FALLBACKS, "Fallback methods tried",
                            Tags.of("name", name, "fallback", fallback, "outcome", success ? "success" : "failure"),
                            statistics, (stats) -> stats.fallbacks(fallback, success));
                }
            }
        }
        for (String idempotencyName : statistics.idempotencyNames()) {
            if (this.bound.add("idempotency/" + idempotencyName)) {
                for (IdempotencyOutcome outcome : IdempotencyOutcome.values()) {
                    counter(IDEMPOTENCY_REQUESTS, "Idempotency decisions",
                            Tags.of("name", idempotencyName, "outcome", outcome.name().toLowerCase(Locale.ROOT)),
                            this.registry, (registry) -> idempotencyCount(registry, idempotencyName, outcome));
                }
            }
        }
    }

    private static double idempotencyCount(ResilienceRegistry registry, String idempotencyName,
            IdempotencyOutcome outcome) {
        return registry.statistics()
            .values()
            .stream()
            .mapToLong((statistics) -> statistics.idempotency(idempotencyName, outcome))
            .sum();
    }

    private void callTimer(String name, ExecutionStatus status, boolean fallback) {
        Timer.builder(CALLS)
            .description("Protected calls, by how they ended")
            .tags("name", name, "status", status.name().toLowerCase(Locale.ROOT), "fallback",
                    Boolean.toString(fallback))
            .register(this.meterRegistry);
    }

    private void breakerCalls(CircuitBreaker circuitBreaker, String kind,
            ToDoubleFunction<CircuitBreakerMetrics> total) {
        counter(CIRCUIT_BREAKER_CALLS, "Calls the circuit breaker recorded or rejected",
                Tags.of("name", circuitBreaker.name(), "kind", kind), circuitBreaker,
                (breaker) -> total.applyAsDouble(breaker.metrics()));
    }

    private <T> void counter(String meterName, String description, Tags tags, T source, ToDoubleFunction<T> count) {
        FunctionCounter.builder(meterName, source, count)
            .description(description)
            .tags(tags)
            .register(this.meterRegistry);
    }

    private static String tagValue(CircuitBreakerState state) {
        return state.name().toLowerCase(Locale.ROOT);
    }

    private final class TransitionCounter implements CircuitBreakerListener {

        @Override
        public void onStateTransition(CircuitBreakerTransition transition) {
            Counter.builder(CIRCUIT_BREAKER_TRANSITIONS)
                .description("Circuit breaker state transitions")
                .tags("name", transition.circuitBreakerName(), "from", tagValue(transition.from()), "to",
                        tagValue(transition.to()))
                .register(ResilienceMeterBinder.this.meterRegistry)
                .increment();
        }

    }

}
