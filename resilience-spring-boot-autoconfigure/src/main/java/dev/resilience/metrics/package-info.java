/**
 * Micrometer meters of every named instance, bound from the start.
 */
@NullMarked
package dev.resilience.metrics;

import org.jspecify.annotations.NullMarked;
