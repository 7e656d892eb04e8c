/**
 * JMH benchmarks of the resilience engine and its Spring layer against Resilience4j,
 * Failsafe and Spring Framework's own {@code @Retryable}.
 */
@NullMarked
package dev.resilience.benchmarks;

import org.jspecify.annotations.NullMarked;
