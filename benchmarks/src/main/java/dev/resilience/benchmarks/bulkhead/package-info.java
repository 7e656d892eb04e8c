/**
 * A deterministic simulator of fixed and adaptive bulkheads before a downstream that
 * slows down, on the engine's virtual clock.
 */
@NullMarked
package dev.resilience.benchmarks.bulkhead;

import org.jspecify.annotations.NullMarked;
