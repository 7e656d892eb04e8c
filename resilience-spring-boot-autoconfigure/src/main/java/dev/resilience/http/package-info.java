/**
 * Resilient outgoing HTTP calls: a RestClient interceptor that retries failed responses
 * and guards each host with a circuit breaker.
 */
@NullMarked
package dev.resilience.http;

import org.jspecify.annotations.NullMarked;
