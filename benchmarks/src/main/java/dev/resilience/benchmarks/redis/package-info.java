/**
 * Throughput of idempotent calls on the Redis store, next to the Redis server's own.
 */
@NullMarked
package dev.resilience.benchmarks.redis;

import org.jspecify.annotations.NullMarked;
