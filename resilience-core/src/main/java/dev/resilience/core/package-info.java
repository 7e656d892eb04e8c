/**
 * The engine's entry points and the self-describing
 * {@link dev.resilience.core.ExecutionResult}.
 */
@NullMarked
package dev.resilience.core;

import org.jspecify.annotations.NullMarked;
