package dev.resilience.http;

import java.time.Duration;

/**
 * The settings of outgoing calls, as {@code resilience.http-client} configures them.
 *
 * @param retry the name of the retry instance every request runs through
 * @param circuitBreakerPerHost whether each host gets a circuit breaker of its own
 * @param maxHosts how many hosts get a breaker of their own; the others share one
 * @param maxRetryAfter the longest {@code Retry-After} wait that is honoured
 */
public record HttpClientSettings(String retry, boolean circuitBreakerPerHost, int maxHosts, Duration maxRetryAfter) {
}
