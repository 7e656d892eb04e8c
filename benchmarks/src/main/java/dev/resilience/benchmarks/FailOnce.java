package dev.resilience.benchmarks;

import java.util.concurrent.Callable;

/**
 * A task whose first attempt after {@link #arm()} fails and whose next attempt returns a
 * value.
 *
 * <p>
 * It always throws the same exception, built once without a stack trace and without
 * suppression, so that the benchmarks measure how a library handles a failure, not what
 * it costs to create one. Not thread-safe: one per benchmark thread.
 */
final class FailOnce implements Callable<Object> {

    private static final RuntimeException FAILURE = new AttemptFailedException();

    private final Object payload = new Object();

    private boolean failNext;

    void arm() {
        this.failNext = true;
    }

    @Override
    public Object call() {
        if (this.failNext) {
            this.failNext = false;
            throw FAILURE;
        }
        return this.payload;
    }

    private static final class AttemptFailedException extends RuntimeException {

        AttemptFailedException() {
            super("first attempt fails", null, false, false);
        }

    }

}
