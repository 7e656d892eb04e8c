/**
 * Redis stores for idempotency claims and dead letters, shared by every instance of an
 * application, and the Jackson support they need to keep results as JSON.
 */
@NullMarked
package dev.resilience.redis;

import org.jspecify.annotations.NullMarked;
