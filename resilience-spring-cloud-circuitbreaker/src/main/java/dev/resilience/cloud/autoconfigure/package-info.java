/**
 * The auto-configuration of the Spring Cloud CircuitBreaker factories and its properties.
 */
@NullMarked
package dev.resilience.cloud.autoconfigure;

import org.jspecify.annotations.NullMarked;
