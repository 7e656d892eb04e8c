/**
 * Actuator endpoints for circuit breakers, retry instances and dead letters.
 */
@NullMarked
package dev.resilience.actuate.endpoint;

import org.jspecify.annotations.NullMarked;
