/**
 * A deterministic retry-storm simulator on the engine's virtual clock.
 */
@NullMarked
package dev.resilience.benchmarks.storm;

import org.jspecify.annotations.NullMarked;
