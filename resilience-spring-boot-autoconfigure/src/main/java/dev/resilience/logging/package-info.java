/**
 * One log line per retry, per fallback used and per call that ends without success.
 */
@NullMarked
package dev.resilience.logging;

import org.jspecify.annotations.NullMarked;
