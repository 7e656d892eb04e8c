package dev.resilience.autoconfigure;

import java.util.List;
import java.util.Objects;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;

/**
 * Resolves the {@link CircuitBreakerConfig} of a circuit breaker from, in order of
 * precedence, its {@code resilience.circuit-breaker.instances.<name>} properties, its
 * {@link CircuitGuarded} annotation (exception lists only), the
 * {@code resilience.circuit-breaker.defaults} properties and the core's built-in
 * defaults. Thread-safe.
 */
public class CircuitBreakerConfigResolver {

    private static final String PREFIX = "resilience.circuit-breaker";

    private static final String DURATION_FIX = "Use a positive duration such as \"30s\".";

    private static final String PERCENT_FIX = "Use a percentage greater than 0 and at most "
            + CircuitBreakerConfig.MAX_RATE_THRESHOLD + ".";

    private final ResilienceProperties properties;

    /**
     * Creates a resolver.
     * @param properties the bound properties
     */
    public CircuitBreakerConfigResolver(ResilienceProperties properties) {
        this.properties = properties;
    }

    /**
     * Resolves the configuration of a circuit breaker.
     * @param name the breaker's name
     * @param annotation the annotation on the method, or {@code null} for properties
     * only; an empty array leaves its setting unset
     * @return the configuration
     * @throws InvalidResiliencePolicyException if a setting is invalid
     */
    public CircuitBreakerConfig resolve(String name, @Nullable CircuitGuarded annotation) {
        ResilienceProperties.CircuitBreaker breaker = this.properties.getCircuitBreaker();
        SettingSources<CircuitBreakerSettings> sources = new SettingSources<>(PREFIX, name,
                breaker.getInstances().get(name), breaker.getDefaults());
        CircuitBreakerConfig.Builder builder = CircuitBreakerConfig.builder();
        builder.slidingWindowType(Objects.requireNonNull(
                sources
                    .pick("sliding-window-type", CircuitBreakerSettings::getSlidingWindowType, null,
                            CircuitBreakerConfig.DEFAULT_SLIDING_WINDOW_TYPE)
                    .value()));
        Setting<Integer> size = sources.pick("sliding-window-size", CircuitBreakerSettings::getSlidingWindowSize, null,
                CircuitBreakerConfig.DEFAULT_SLIDING_WINDOW_SIZE);
        String sizeFix = "Use at most " + CircuitBreakerConfig.MAX_COUNT_WINDOW_SIZE + " calls for a count window or "
                + CircuitBreakerConfig.MAX_TIME_WINDOW_SECONDS + " seconds for a time window.";
        size.applyTo(name, builder::slidingWindowSize, sizeFix);
        sources
            .pick("minimum-calls", CircuitBreakerSettings::getMinimumCalls, null,
                    CircuitBreakerConfig.DEFAULT_MINIMUM_CALLS)
            .applyTo(name, builder::minimumCalls, "Use 1 or more calls.");
        sources
            .pick("failure-rate-threshold", CircuitBreakerSettings::getFailureRateThreshold, null,
                    CircuitBreakerConfig.DEFAULT_FAILURE_RATE_THRESHOLD)
            .applyTo(name, builder::failureRateThreshold, PERCENT_FIX);
        sources
            .pick("slow-call-duration", CircuitBreakerSettings::getSlowCallDuration, null,
                    CircuitBreakerConfig.DEFAULT_SLOW_CALL_DURATION)
            .applyTo(name, builder::slowCallDuration, DURATION_FIX);
        sources
            .pick("slow-call-rate-threshold", CircuitBreakerSettings::getSlowCallRateThreshold, null,
                    CircuitBreakerConfig.DEFAULT_SLOW_CALL_RATE_THRESHOLD)
            .applyTo(name, builder::slowCallRateThreshold, PERCENT_FIX);
        sources
            .pick("wait-in-open", CircuitBreakerSettings::getWaitInOpen, null,
                    CircuitBreakerConfig.DEFAULT_WAIT_IN_OPEN)
            .applyTo(name, builder::waitInOpen, DURATION_FIX);
        sources
            .pick("half-open-calls", CircuitBreakerSettings::getHalfOpenCalls, null,
                    CircuitBreakerConfig.DEFAULT_HALF_OPEN_CALLS)
            .applyTo(name, builder::halfOpenCalls,
                    "Use from 1 to " + CircuitBreakerConfig.MAX_HALF_OPEN_CALLS + " probe calls.");
        sources
            .pick("max-wait-in-half-open", CircuitBreakerSettings::getMaxWaitInHalfOpen, null,
                    CircuitBreakerConfig.DEFAULT_MAX_WAIT_IN_HALF_OPEN)
            .applyTo(name, builder::maxWaitInHalfOpen, DURATION_FIX);
        builder.automaticTransitionToHalfOpen(
                Objects.requireNonNull(sources
                    .pick("automatic-transition-to-half-open", CircuitBreakerSettings::getAutomaticTransitionToHalfOpen,
                            null, CircuitBreakerConfig.DEFAULT_AUTOMATIC_TRANSITION_TO_HALF_OPEN)
                    .value()));
        builder.recordOn(
                Objects.requireNonNull(
                        sources
                            .pick("record-on", CircuitBreakerSettings::getRecordOn,
                                    (annotation != null) ? SettingSources.annotationTypes("@CircuitGuarded(recordOn)",
                                            annotation.recordOn()) : null,
                                    List.of())
                            .value()));
        builder.ignoreOn(
                Objects.requireNonNull(
                        sources
                            .pick("ignore-on", CircuitBreakerSettings::getIgnoreOn,
                                    (annotation != null) ? SettingSources.annotationTypes("@CircuitGuarded(ignoreOn)",
                                            annotation.ignoreOn()) : null,
                                    List.of())
                            .value()));
        try {
            return builder.build();
        }
        catch (IllegalArgumentException ex) {
            throw size.invalid(name, ex.getMessage(), sizeFix, ex);
        }
    }

}
