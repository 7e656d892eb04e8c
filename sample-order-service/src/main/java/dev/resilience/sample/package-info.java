/**
 * The sample order service.
 */
@NullMarked
package dev.resilience.sample;

import org.jspecify.annotations.NullMarked;
