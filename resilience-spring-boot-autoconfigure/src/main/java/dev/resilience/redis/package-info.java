/**
 * Redis stores for idempotency claims, dead letters, last good values and rate limiters'
 * permits, shared by every instance of an application, and the Jackson support they need
 * to keep results as JSON.
 */
@NullMarked
package dev.resilience.redis;

import org.jspecify.annotations.NullMarked;
