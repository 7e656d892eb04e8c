package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

import dev.resilience.core.retry.Backoff;

/**
 * What a synchronous call with a retry policy should do, attempt by attempt, as DESIGN
 * section 6 states it:
 *
 * <ul>
 * <li>An attempt that succeeds before the deadline ends the call with SUCCESS.</li>
 * <li>An attempt that ends at or after the deadline ({@code max-duration} from the start)
 * overran it, whatever it returned (DESIGN section 11: timeouts are final): it ends with
 * an {@link AttemptTimeoutException}, caused by its error if it failed, which is
 * retryable.</li>
 * <li>A non-retryable error ends the call with FAILURE; a retryable one on the last
 * attempt with ERROR, or TIMEOUT if it overran.</li>
 * <li>Otherwise the wait before retry {@code n} (the first retry being 1) is drawn in
 * {@link #bounds}; when the next attempt could not start before the deadline
 * ({@code now + wait >= deadline}) the call ends with TIMEOUT and a
 * {@link DeadlineExceededException} caused by the last error, without sleeping.</li>
 * </ul>
 *
 * <p>
 * Draws are made by a {@link Draw}, which picks the same fraction of every range, so that
 * the model knows every wait the engine draws.
 */
final class RetryModel {

    private RetryModel() {
    }

    /**
     * Returns the range DESIGN section 6 gives the wait before a retry, in nanoseconds:
     * with {@code delay(n) = min(maxDelay, delay * multiplier^(n - 1))}, NONE is
     * {@code delay(n)} exactly, FULL {@code [0, delay(n)]}, EQUAL
     * {@code [delay(n) / 2, delay(n)]}, and DECORRELATED
     * {@code [delay, min(maxDelay, 3 * previous)]}, the previous wait being {@code delay}
     * before the first retry.
     * @param backoff the backoff
     * @param retry the retry's number, from 1
     * @param previousNanos the previous wait, 0 before the first retry
     * @return the lowest and highest wait
     */
    static long[] bounds(Backoff backoff, int retry, long previousNanos) {
        long delay = backoff.delay().toNanos();
        long maxDelay = backoff.maxDelay().toNanos();
        long base = (long) Math.min(maxDelay, delay * Math.pow(backoff.multiplier(), retry - 1));
        return switch (backoff.jitter()) {
            case NONE -> new long[] { base, base };
            case FULL -> new long[] { 0, base };
            case EQUAL -> new long[] { base / 2, base };
            case DECORRELATED ->
                new long[] { delay, Math.min(maxDelay, 3 * ((previousNanos > 0) ? previousNanos : delay)) };
        };
    }

    /**
     * Runs the call on paper.
     * @param call the policy's settings and the attempts' script
     * @return what the engine should report
     */
    static Outcome expect(RetryCall call) {
        Backoff backoff = call.backoff();
        long deadline = (call.maxDurationMillis() > 0) ? Duration.ofMillis(call.maxDurationMillis()).toNanos()
                : Long.MAX_VALUE;
        long now = 0;
        long previous = 0;
        List<String> failures = new ArrayList<>();
        List<Duration> waits = new ArrayList<>();
        for (int attempt = 1;; attempt++) {
            RetryCall.Attempt script = call.attempts().get(attempt - 1);
            long took = Duration.ofMillis(script.millis()).toNanos();
            now += took;
            boolean overran = now >= deadline;
            if (script.ending() == RetryCall.Ending.SUCCESS && !overran) {
                return new Outcome(ExecutionStatus.SUCCESS, attempt, failures, "", waits, Duration.ofNanos(now));
            }
            String error = switch (script.ending()) {
                case SUCCESS -> AttemptTimeoutException.class.getSimpleName();
                case RETRYABLE_ERROR -> overrun(IOException.class.getSimpleName(), overran);
                case NON_RETRYABLE_ERROR -> overrun(RetryCall.DeclinedException.class.getSimpleName(), overran);
            };
            failures.add(attempt + ": " + error + " after " + Duration.ofNanos(took));
            if (!overran && script.ending() == RetryCall.Ending.NON_RETRYABLE_ERROR) {
                return new Outcome(ExecutionStatus.FAILURE, attempt, failures, error, waits, Duration.ofNanos(now));
            }
            if (attempt == call.maxAttempts()) {
                return new Outcome(overran ? ExecutionStatus.TIMEOUT : ExecutionStatus.ERROR, attempt, failures, error,
                        waits, Duration.ofNanos(now));
            }
            long wait = call.draw().pick(bounds(backoff, attempt, previous));
            if (now + wait >= deadline) {
                return new Outcome(ExecutionStatus.TIMEOUT, attempt, failures,
                        DeadlineExceededException.class.getSimpleName() + " <- " + error, waits, Duration.ofNanos(now));
            }
            waits.add(Duration.ofNanos(wait));
            previous = wait;
            now += wait;
        }
    }

    private static String overrun(String thrown, boolean overran) {
        return overran ? AttemptTimeoutException.class.getSimpleName() + " <- " + thrown : thrown;
    }

    /**
     * How a call ended, in the terms the model can predict.
     *
     * @param status the status
     * @param attempts the attempts made
     * @param failures each failed attempt: number, error (with its cause) and duration
     * @param error the final error with its causes, or empty
     * @param waits the wait before each retry, zero waits included
     * @param duration how long the call took on the virtual clock
     */
    record Outcome(ExecutionStatus status, int attempts, List<String> failures, String error, List<Duration> waits,
            Duration duration) {
    }

    /**
     * A random generator that always picks the same fraction of the range asked for:
     * {@code origin + floor(fraction * (bound - origin))}, so 0 picks the lowest value
     * and the largest double below 1 the highest.
     *
     * @param fraction in {@code [0, 1)}
     */
    record Draw(double fraction) implements RandomGenerator {

        long pick(long[] range) {
            long lowest = range[0];
            long highest = range[1];
            return (lowest >= highest) ? lowest : nextLong(lowest, highest + 1);
        }

        @Override
        public long nextLong(long origin, long bound) {
            return origin + Math.min(bound - origin - 1, (long) (this.fraction * (bound - origin)));
        }

        @Override
        public long nextLong() {
            throw new UnsupportedOperationException("the backoff draws from a range");
        }
    }

}
