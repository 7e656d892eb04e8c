package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;

/**
 * A generated retry policy and the script of the attempts of one call through it.
 *
 * @param maxAttempts the attempts allowed
 * @param backoff the waits between attempts
 * @param draw the fraction of each wait's range that the random generator picks
 * @param maxDurationMillis the deadline of the call, or 0 for none
 * @param attempts how each possible attempt ends and how long it takes
 */
record RetryCall(int maxAttempts, Backoff backoff, RetryModel.Draw draw, long maxDurationMillis,
        List<Attempt> attempts) {

    /** How an attempt ends. */
    enum Ending {

        SUCCESS,

        /** With an {@link java.io.IOException}, which the policy retries. */
        RETRYABLE_ERROR,

        /** With a {@link DeclinedException}, on which the policy aborts. */
        NON_RETRYABLE_ERROR

    }

    /**
     * One attempt of the script.
     *
     * @param ending how it ends
     * @param millis how long it takes on the virtual clock
     */
    record Attempt(Ending ending, long millis) {

        @Override
        public String toString() {
            return this.ending + " after " + this.millis + "ms";
        }
    }

    /** A business error that is never retried. */
    static final class DeclinedException extends RuntimeException {

        DeclinedException() {
            super("card declined");
        }

    }

    static RetryCall generate(Random random) {
        int maxAttempts = 1 + random.nextInt(6);
        long delay = random.nextInt(501);
        double multiplier = (random.nextInt(5) == 0) ? 1.0 : 1.0 + 2.0 * random.nextDouble();
        long maxDelay = (random.nextInt(5) == 0) ? delay : delay + random.nextInt(2001);
        Jitter jitter = Jitter.values()[random.nextInt(Jitter.values().length)];
        int draw = random.nextInt(4);
        double fraction = (draw == 0) ? 0 : (draw == 1) ? Math.nextDown(1.0) : random.nextDouble();
        int deadline = random.nextInt(5);
        long maxDuration = (deadline < 2) ? 0 : 1 + random.nextInt((deadline == 2) ? 600 : 3000);
        List<Attempt> attempts = new ArrayList<>();
        for (int i = 0; i < maxAttempts; i++) {
            int roll = random.nextInt(100);
            Ending ending = (roll < 20) ? Ending.SUCCESS
                    : (roll < 85) ? Ending.RETRYABLE_ERROR : Ending.NON_RETRYABLE_ERROR;
            attempts.add(new Attempt(ending, (random.nextInt(3) == 0) ? 0 : random.nextInt(301)));
        }
        return new RetryCall(maxAttempts,
                Backoff.of(Duration.ofMillis(delay), multiplier, Duration.ofMillis(maxDelay), jitter),
                new RetryModel.Draw(fraction), maxDuration, List.copyOf(attempts));
    }
}
