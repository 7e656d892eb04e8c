package dev.resilience.logging;

import java.time.Duration;

import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.deadletter.DeadLetterText;
import dev.resilience.core.idempotency.IdempotencyException;
import dev.resilience.core.retry.RetryEvent;
import dev.resilience.core.time.TimeSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Logs one line per retry, per fallback used and per call that ends without success, each
 * under a category of its own so that its level is set with {@code logging.level}:
 * <ul>
 * <li>{@value #RETRY} at INFO: the name, the attempt that failed, the delay before the
 * next one, and the error's class and message;</li>
 * <li>{@value #FALLBACK} at WARN: the name, the fallback's name and whether it produced a
 * value;</li>
 * <li>{@value #CALL} at WARN: a call that ends without a value, with its status, its
 * attempts and its final error's class and message; at DEBUG, every other call.</li>
 * </ul>
 * A line never holds the call's arguments or its idempotency key: the message of an
 * idempotency error, which quotes the key, is left out, and every URL in a message loses
 * its user info, query and fragment (the token of a client's I/O error). An error's
 * message is written on one line and cut at {@value #MAX_MESSAGE_LENGTH} characters.
 *
 * <p>
 * The WARN lines are throttled per kind of line and name (a fallback's name and whether
 * it succeeded, a call's status): one line per interval (default
 * {@link #DEFAULT_INTERVAL}), the lines held back in between counted on the next one
 * written, so that an open breaker refusing a busy method's every call, or a fallback
 * answering them, writes a line every few seconds rather than one per call. Retry lines
 * are not throttled: each is the story of one call; set {@value #RETRY} to WARN to
 * silence them. Thread-safe.
 */
public final class ExecutionLogListener implements ExecutionListener {

    /** The category of the retry lines. */
    public static final String RETRY = "dev.resilience.retry";

    /** The category of the fallback lines. */
    public static final String FALLBACK = "dev.resilience.fallback";

    /** The category of the lines of calls that end. */
    public static final String CALL = "dev.resilience.call";

    /** The most characters of an error's message that a line holds. */
    public static final int MAX_MESSAGE_LENGTH = 500;

    private static final Log retryLogger = LogFactory.getLog(RETRY);

    private static final Log fallbackLogger = LogFactory.getLog(FALLBACK);

    private static final Log callLogger = LogFactory.getLog(CALL);

    /**
     * The default of the shortest time between two WARN lines of one category and name.
     */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

    private final LineThrottle throttle;

    /**
     * Creates a listener whose WARN lines are throttled to one per
     * {@link #DEFAULT_INTERVAL} for each category and name, on the system clock.
     */
    public ExecutionLogListener() {
        this(DEFAULT_INTERVAL, TimeSource.system());
    }

    /**
     * Creates a listener.
     * @param interval the shortest time between two WARN lines of one category and name;
     * zero writes every line
     * @param time the clock of the interval
     * @throws IllegalArgumentException if {@code interval} is negative
     */
    public ExecutionLogListener(Duration interval, TimeSource time) {
        if (interval.isNegative()) {
            throw new IllegalArgumentException("interval must not be negative, was " + interval);
        }
        this.throttle = new LineThrottle(interval, time);
    }

    @Override
    public void onRetry(String name, RetryEvent event) {
        if (retryLogger.isInfoEnabled()) {
            retryLogger.info("Retrying '" + name + "': attempt " + event.attempt() + " failed with "
                    + describe(event.error()) + "; next attempt in " + format(event.delay()));
        }
    }

    @Override
    public void onFallback(String name, String fallbackName, boolean success) {
        if (fallbackLogger.isWarnEnabled()) {
            long heldBack = this.throttle.pass(FALLBACK + ' ' + name + ' ' + fallbackName + ' ' + success);
            if (heldBack >= 0) {
                fallbackLogger.warn("Fallback '" + fallbackName + "' of '" + name + "' "
                        + (success ? "succeeded" : "failed") + heldBack(heldBack));
            }
        }
    }

    @Override
    public void onComplete(String name, ExecutionResult<?> result) {
        if (!result.isSuccess()) {
            if (callLogger.isWarnEnabled()) {
                long heldBack = this.throttle.pass(CALL + ' ' + name + ' ' + result.status());
                if (heldBack >= 0) {
                    callLogger.warn("Call '" + name + "' ended " + result.status() + " after " + attempts(result) + ": "
                            + describe(result.error()) + heldBack(heldBack));
                }
            }
        }
        else if (callLogger.isDebugEnabled()) {
            callLogger.debug("Call '" + name + "' ended " + result.status() + " after " + attempts(result)
                    + (result.fallbackUsed() ? " with a fallback" : "") + (result.replayed() ? " by a replay" : ""));
        }
    }

    private static String heldBack(long lines) {
        return (lines > 0) ? " (and " + lines + " more since the last line, held back)" : "";
    }

    private static String attempts(ExecutionResult<?> result) {
        return result.attempts() + ((result.attempts() != 1) ? " attempts" : " attempt");
    }

    private static String describe(@Nullable Throwable error) {
        if (error == null) {
            return "no error";
        }
        String message = DeadLetterText.withoutUrlCredentials(error.getMessage());
        if (message == null || error instanceof IdempotencyException) {
            return error.getClass().getName();
        }
        String oneLine = message.replaceAll("[\\r\\n\\u0085\\u2028\\u2029]+", " ");
        if (oneLine.length() > MAX_MESSAGE_LENGTH) {
            oneLine = oneLine.substring(0, MAX_MESSAGE_LENGTH) + "...";
        }
        return error.getClass().getName() + ": " + oneLine;
    }

    private static String format(Duration delay) {
        long millis = delay.toMillis();
        if (millis < 1000 || millis % 1000 != 0) {
            return millis + "ms";
        }
        return (millis / 1000) + "s";
    }

}
