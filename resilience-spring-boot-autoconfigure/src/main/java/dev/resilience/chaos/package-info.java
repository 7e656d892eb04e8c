/**
 * Fault injection for protected operations: failures and latency injected into each
 * attempt, inside the pipeline, while {@code resilience.chaos.enabled} is set.
 */
@NullMarked
package dev.resilience.chaos;

import org.jspecify.annotations.NullMarked;
