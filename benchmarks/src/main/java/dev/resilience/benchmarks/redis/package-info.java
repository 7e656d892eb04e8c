/**
 * Throughput of idempotent calls and rate limiter permits on the Redis stores, next to
 * the Redis server's own.
 */
@NullMarked
package dev.resilience.benchmarks.redis;

import org.jspecify.annotations.NullMarked;
