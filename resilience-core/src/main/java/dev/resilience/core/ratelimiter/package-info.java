/**
 * The rate limiter: at most so many calls per period, refilled continuously (GCRA).
 */
@NullMarked
package dev.resilience.core.ratelimiter;

import org.jspecify.annotations.NullMarked;
