/**
 * The annotations that make a Spring bean method resilient: {@link Retryable},
 * {@link CircuitGuarded}, {@link Bulkhead}, {@link RateLimited}, {@link Fallback},
 * {@link Idempotent} and {@link Hedged}.
 */
@NullMarked
package dev.resilience.annotation;

import org.jspecify.annotations.NullMarked;
