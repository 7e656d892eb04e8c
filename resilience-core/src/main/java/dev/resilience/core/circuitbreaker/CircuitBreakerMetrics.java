package dev.resilience.core.circuitbreaker;

/**
 * A snapshot of a {@link CircuitBreaker}'s state and counts.
 *
 * <p>
 * The window fields describe the outcomes the current state decides on: the sliding
 * window when {@link CircuitBreakerState#CLOSED}, the probes when
 * {@link CircuitBreakerState#HALF_OPEN}, the window or probes that opened the breaker
 * when {@link CircuitBreakerState#OPEN}, and nothing in the manual states. The
 * {@code ...Total} fields count since the breaker was created and never go down, for
 * monotonic counters.
 *
 * @param state the current state
 * @param failureRate the percentage of failed calls in the window, or -1 while fewer
 * calls are buffered than the state needs to decide (minimum calls, or all probes when
 * half open)
 * @param slowCallRate the percentage of slow calls (successful or failed) in the window,
 * or -1 like {@code failureRate}
 * @param bufferedCalls the number of calls in the window
 * @param failedCalls the number of failed calls in the window
 * @param slowCalls the number of slow calls in the window, successful and failed alike
 * @param successfulCallsTotal successful calls recorded since creation, slow ones
 * included
 * @param failedCallsTotal failed calls recorded since creation, slow ones included
 * @param slowCallsTotal slow calls recorded since creation, successful and failed alike
 * @param ignoredCallsTotal calls that ended with an ignored exception since creation
 * @param notPermittedCallsTotal calls rejected since creation
 */
public record CircuitBreakerMetrics(CircuitBreakerState state, float failureRate, float slowCallRate, int bufferedCalls,
        int failedCalls, int slowCalls, long successfulCallsTotal, long failedCallsTotal, long slowCallsTotal,
        long ignoredCallsTotal, long notPermittedCallsTotal) {
}
