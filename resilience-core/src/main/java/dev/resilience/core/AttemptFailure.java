package dev.resilience.core;

import java.time.Duration;

/**
 * One failed attempt of a call.
 *
 * @param attempt the attempt's number, the first being 1
 * @param error what the attempt threw
 * @param duration how long the attempt ran
 */
public record AttemptFailure(int attempt, Throwable error, Duration duration) {
}
