package dev.resilience.core.retry;

import java.time.Duration;

/**
 * A retry about to happen: an attempt failed with a retryable error and the next one will
 * start after {@code delay}.
 *
 * @param name the retry instance's name
 * @param attempt the number of the attempt that just failed, the first being 1
 * @param error what that attempt threw
 * @param delay the wait before the next attempt
 */
public record RetryEvent(String name, int attempt, Throwable error, Duration delay) {
}
