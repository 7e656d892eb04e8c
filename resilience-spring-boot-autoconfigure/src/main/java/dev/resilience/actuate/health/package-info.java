/**
 * Health contributor reporting the state of every circuit breaker.
 */
@NullMarked
package dev.resilience.actuate.health;

import org.jspecify.annotations.NullMarked;
