/**
 * Idempotency keys: the {@link dev.resilience.core.idempotency.IdempotencyStore} SPI, its
 * bounded in-memory implementation, key validation and the exceptions an idempotent call
 * ends with.
 */
@NullMarked
package dev.resilience.core.idempotency;

import org.jspecify.annotations.NullMarked;
