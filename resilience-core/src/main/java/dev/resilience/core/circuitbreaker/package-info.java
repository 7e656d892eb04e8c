/**
 * The circuit breaker: a lock-free state machine over a count or time sliding window.
 */
@NullMarked
package dev.resilience.core.circuitbreaker;

import org.jspecify.annotations.NullMarked;
