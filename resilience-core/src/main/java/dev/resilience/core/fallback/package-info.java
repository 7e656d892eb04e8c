/**
 * Fallback chains: the alternatives tried, in order, when a call fails after its retries.
 */
@NullMarked
package dev.resilience.core.fallback;

import org.jspecify.annotations.NullMarked;
