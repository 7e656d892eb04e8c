/**
 * Resilient outgoing HTTP calls: a RestClient interceptor and a WebClient filter that
 * retry failed responses and guard each host with a circuit breaker.
 */
@NullMarked
package dev.resilience.http;

import org.jspecify.annotations.NullMarked;
