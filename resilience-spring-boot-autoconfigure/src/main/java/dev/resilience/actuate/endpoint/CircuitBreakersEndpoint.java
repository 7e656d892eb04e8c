package dev.resilience.actuate.endpoint;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.resilience.core.time.Durations;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerMetrics;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.event.CircuitBreakerEvent;
import dev.resilience.event.CircuitBreakerEvents;
import dev.resilience.registry.ResilienceRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The {@code circuitbreakers} endpoint: every breaker's state and window, one breaker's
 * configuration and recent events, and moving a breaker by hand to CLOSED, FORCED_OPEN or
 * DISABLED. The move is off unless the application opts in with
 * {@code management.endpoint.circuitbreakers.access=unrestricted}.
 */
@Endpoint(id = "circuitbreakers", defaultAccess = Access.READ_ONLY)
public class CircuitBreakersEndpoint {

    private static final List<CircuitBreakerState> MANUAL_STATES = List.of(CircuitBreakerState.CLOSED,
            CircuitBreakerState.FORCED_OPEN, CircuitBreakerState.DISABLED);

    private final ResilienceRegistry registry;

    private final @Nullable CircuitBreakerEvents events;

    /**
     * Creates the endpoint.
     * @param registry the breakers to report
     * @param events the breakers' recent events, or {@code null} to report none
     */
    public CircuitBreakersEndpoint(ResilienceRegistry registry, @Nullable CircuitBreakerEvents events) {
        this.registry = registry;
        this.events = events;
    }

    /**
     * Reports every breaker, by name.
     * @return the breakers
     */
    @ReadOperation
    public CircuitBreakersDescriptor circuitBreakers() {
        SortedMap<String, CircuitBreakerDescriptor> breakers = new TreeMap<>();
        this.registry.circuitBreakers().forEach((name, breaker) -> breakers.put(name, describe(breaker)));
        return new CircuitBreakersDescriptor(breakers);
    }

    /**
     * Reports one breaker with its configuration and recent events.
     * @param name the breaker's name
     * @return the breaker, or {@code null} (404) when none has that name
     */
    @ReadOperation
    public @Nullable CircuitBreakerDetailsDescriptor circuitBreaker(@Selector String name) {
        return this.registry.findCircuitBreaker(name).map(this::details).orElse(null);
    }

    /**
     * Moves a breaker by hand.
     * @param name the breaker's name
     * @param state {@code CLOSED}, {@code FORCED_OPEN} or {@code DISABLED}
     * @return the breaker's details after the move; 404 when no breaker has that name,
     * 400 with a message listing the allowed states for any other state
     */
    @WriteOperation
    public WebEndpointResponse<?> transition(@Selector String name, String state) {
        Optional<CircuitBreaker> breaker = this.registry.findCircuitBreaker(name);
        if (breaker.isEmpty()) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        }
        CircuitBreakerState target = manualState(state);
        if (target == null) {
            String allowed = MANUAL_STATES.stream().map(Enum::name).collect(Collectors.joining(", "));
            return new WebEndpointResponse<>(
                    Map.of("message", "Invalid state '" + state + "': allowed states are " + allowed),
                    WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        breaker.get().transitionTo(target);
        return new WebEndpointResponse<>(details(breaker.get()));
    }

    private static @Nullable CircuitBreakerState manualState(String state) {
        return Arrays.stream(CircuitBreakerState.values())
            .filter((candidate) -> candidate.name().equals(state.trim().toUpperCase(Locale.ROOT)))
            .filter(MANUAL_STATES::contains)
            .findFirst()
            .orElse(null);
    }

    private static CircuitBreakerDescriptor describe(CircuitBreaker breaker) {
        CircuitBreakerMetrics metrics = breaker.metrics();
        CircuitBreakerConfig config = breaker.config();
        return new CircuitBreakerDescriptor(metrics.state().name(), metrics.failureRate(), metrics.slowCallRate(),
                config.failureRateThreshold(), config.slowCallRateThreshold(), metrics.bufferedCalls(),
                metrics.failedCalls(), metrics.slowCalls(), metrics.notPermittedCallsTotal());
    }

    private CircuitBreakerDetailsDescriptor details(CircuitBreaker breaker) {
        CircuitBreakerConfig config = breaker.config();
        ConfigDescriptor configDescriptor = new ConfigDescriptor(
                config.slidingWindowType().name().toLowerCase(Locale.ROOT), config.slidingWindowSize(),
                config.minimumCalls(), config.failureRateThreshold(), Durations.format(config.slowCallDuration()),
                config.slowCallRateThreshold(), Durations.format(config.waitInOpen()), config.halfOpenCalls(),
                Durations.format(config.maxWaitInHalfOpen()), config.automaticTransitionToHalfOpen(),
                Descriptors.classNames(config.recordOn()), Descriptors.classNames(config.ignoreOn()));
        List<EventDescriptor> events = (this.events != null)
                ? this.events.events(breaker.name()).stream().map(EventDescriptor::of).toList() : List.of();
        return new CircuitBreakerDetailsDescriptor(describe(breaker), configDescriptor, events);
    }

    /**
     * The breakers of the application.
     *
     * @param circuitBreakers each breaker, by name
     */
    public record CircuitBreakersDescriptor(Map<String, CircuitBreakerDescriptor> circuitBreakers) {
    }

    /**
     * A breaker's state and window.
     *
     * @param state the current state
     * @param failureRate the failure rate in the window in percent, -1 until the minimum
     * calls
     * @param slowCallRate the slow-call rate in the window in percent, -1 until the
     * minimum calls
     * @param failureRateThreshold the failure rate that opens the breaker
     * @param slowCallRateThreshold the slow-call rate that opens the breaker
     * @param bufferedCalls the calls in the window
     * @param failedCalls the failed calls in the window
     * @param slowCalls the slow calls in the window
     * @param notPermittedCalls the calls rejected since the breaker was created
     */
    public record CircuitBreakerDescriptor(String state, float failureRate, float slowCallRate,
            float failureRateThreshold, float slowCallRateThreshold, int bufferedCalls, int failedCalls, int slowCalls,
            long notPermittedCalls) {
    }

    /**
     * A breaker's state and window, configuration and recent events. The JSON holds the
     * fields of {@link CircuitBreakerDescriptor} next to {@code config} and
     * {@code events}.
     *
     * @param breaker the state and window
     * @param config the configuration
     * @param events the recent transitions and rejections, newest first
     */
    public record CircuitBreakerDetailsDescriptor(@JsonUnwrapped CircuitBreakerDescriptor breaker,
            ConfigDescriptor config, List<EventDescriptor> events) {
    }

    /**
     * A breaker's configuration.
     *
     * @param slidingWindowType {@code count} or {@code time}
     * @param slidingWindowSize the calls, or seconds, of the window
     * @param minimumCalls the calls needed in the window before the rates count
     * @param failureRateThreshold the failure rate that opens the breaker, in percent
     * @param slowCallDuration the duration from which a call is slow
     * @param slowCallRateThreshold the slow-call rate that opens the breaker, in percent
     * @param waitInOpen how long the breaker stays open before letting probes through
     * @param halfOpenCalls the probes let through when half open
     * @param maxWaitInHalfOpen how long the breaker waits in half open for all its probes
     * before it opens again
     * @param automaticTransitionToHalfOpen whether the breaker moves to half open by
     * itself when the wait in open has passed
     * @param recordOn the exceptions recorded as failures; empty means all not ignored
     * @param ignoreOn the exceptions neither failures nor successes
     */
    public record ConfigDescriptor(String slidingWindowType, int slidingWindowSize, int minimumCalls,
            float failureRateThreshold, String slowCallDuration, float slowCallRateThreshold, String waitInOpen,
            int halfOpenCalls, String maxWaitInHalfOpen, boolean automaticTransitionToHalfOpen, List<String> recordOn,
            List<String> ignoreOn) {
    }

    /**
     * A recent event: a transition, or a run of consecutive rejections.
     *
     * @param type {@code STATE_TRANSITION} or {@code NOT_PERMITTED}
     * @param from the state left, for a transition
     * @param to the state entered, for a transition
     * @param time when, ISO-8601; for rejections, the latest of the run
     * @param since the first rejection of the run, ISO-8601
     * @param count the calls the run rejected
     */
    @JsonInclude(Include.NON_NULL)
    public record EventDescriptor(String type, @Nullable String from, @Nullable String to, String time,
            @Nullable String since, @Nullable Long count) {

        static EventDescriptor of(CircuitBreakerEvent event) {
            boolean transition = event.type() == CircuitBreakerEvent.Type.STATE_TRANSITION;
            return new EventDescriptor(event.type().name(), (event.from() != null) ? event.from().name() : null,
                    (event.to() != null) ? event.to().name() : null, event.time().toString(),
                    (event.since() != null) ? event.since().toString() : null, transition ? null : event.count());
        }
    }

}
