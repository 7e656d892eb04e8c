/**
 * Hedging: when an attempt has not answered after a delay, another starts beside it, and
 * the first success wins.
 */
@NullMarked
package dev.resilience.core.hedging;

import org.jspecify.annotations.NullMarked;
