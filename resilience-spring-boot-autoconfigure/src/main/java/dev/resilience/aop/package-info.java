/**
 * The one AOP advisor and interceptor behind {@code @Retryable}, {@code @CircuitGuarded},
 * {@code @Fallback} and {@code @Idempotent}, and the compilation of each annotated method
 * into its pipeline at startup.
 */
@NullMarked
package dev.resilience.aop;

import org.jspecify.annotations.NullMarked;
