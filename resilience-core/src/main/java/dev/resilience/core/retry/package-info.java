/**
 * Retry configuration: the immutable {@link dev.resilience.core.retry.RetryPolicy},
 * backoff with jitter, and the retry budget shared by all calls of one retry instance.
 */
@NullMarked
package dev.resilience.core.retry;

import org.jspecify.annotations.NullMarked;
