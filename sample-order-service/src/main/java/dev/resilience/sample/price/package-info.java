/**
 * The ETH price, read from the oracle with a breaker and a stale fallback.
 */
@NullMarked
package dev.resilience.sample.price;

import org.jspecify.annotations.NullMarked;
