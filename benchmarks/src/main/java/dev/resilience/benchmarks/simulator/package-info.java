/**
 * What the simulators on the engine's virtual clock share: their command-line options and
 * the look of their charts.
 */
@NullMarked
package dev.resilience.benchmarks.simulator;

import org.jspecify.annotations.NullMarked;
