package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.Executor;

import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyResultNotStorableException;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.NotReplayableResult;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * The completion or release of one claimed idempotency key. Tried once on the call's
 * thread; when the store fails, tried again in the background with a growing wait until
 * the claim's lease ends, since until then no other call can run under the key. Past the
 * lease the key expires, and a repeated request may run the method again: that is logged
 * at ERROR. Retries wait on the time source's timer and run on the executor.
 */
final class ClaimSettlement implements Runnable {

    private static final System.Logger logger = System.getLogger(ClaimSettlement.class.getName());

    private static final long FIRST_WAIT_NANOS = Duration.ofMillis(100).toNanos();

    private static final long LONGEST_WAIT_NANOS = Duration.ofSeconds(2).toNanos();

    private final IdempotencyPolicy policy;

    private final String key;

    private final String storeKey;

    private final String ownerToken;

    private final boolean complete;

    private @Nullable Object value;

    private final TimeSource time;

    private final Executor executor;

    private final long leaseEndNanos;

    private long waitNanos = FIRST_WAIT_NANOS;

    private int failures;

    ClaimSettlement(IdempotencyPolicy policy, String key, String storeKey, String ownerToken, boolean complete,
            @Nullable Object value, TimeSource time, Executor executor, long leaseEndNanos) {
        this.policy = policy;
        this.key = key;
        this.storeKey = storeKey;
        this.ownerToken = ownerToken;
        this.complete = complete;
        this.value = value;
        this.time = time;
        this.executor = executor;
        this.leaseEndNanos = leaseEndNanos;
    }

    /**
     * Settles the key once, and on a store failure schedules the next try.
     * @return {@code false} if the store failed
     */
    boolean tryOnce() {
        try {
            boolean settled = settle();
            if (!settled) {
                logger.log(System.Logger.Level.WARNING,
                        "Idempotency lease of key ''{0}'' of ''{1}'' expired before its "
                                + "call ended; another caller owns the key now",
                        this.key, this.policy.name());
            }
            else if (this.failures > 0) {
                logger.log(System.Logger.Level.WARNING,
                        "Idempotency key ''{0}'' of ''{1}'' was {2} after {3} failed " + "attempts", this.key,
                        this.policy.name(), operation() + "d", this.failures);
            }
            return true;
        }
        catch (RuntimeException ex) {
            this.failures++;
            retryLater(ex);
            return false;
        }
    }

    @Override
    public void run() {
        tryOnce();
    }

    private boolean settle() {
        IdempotencyStore store = this.policy.store();
        if (!this.complete) {
            return store.release(this.storeKey, this.ownerToken);
        }
        try {
            return complete(store);
        }
        catch (IdempotencyResultNotStorableException ex) {
            logger.log(System.Logger.Level.WARNING,
                    "The result of a call of ''{0}'' under key ''{1}'' cannot be stored "
                            + "({2}); the key is completed as not replayable",
                    this.policy.name(), this.key, ex.getMessage());
            this.value = new NotReplayableResult(ex.getMessage());
            return complete(store);
        }
    }

    private boolean complete(IdempotencyStore store) {
        return store.complete(this.storeKey, this.ownerToken, this.value, this.policy.resultType(), this.policy.ttl());
    }

    private void retryLater(RuntimeException failure) {
        long wait = this.waitNanos;
        this.waitNanos = Math.min(LONGEST_WAIT_NANOS, wait * 2);
        if (wait >= this.leaseEndNanos - this.time.nanoTime()) {
            logger.log(System.Logger.Level.ERROR,
                    "Idempotency store failed to " + operation() + " key '" + this.key + "' of '" + this.policy.name()
                            + "' until its lease ended; a repeated request with this key " + "may run the method again",
                    failure);
            return;
        }
        logger.log((this.failures == 1) ? System.Logger.Level.ERROR : System.Logger.Level.DEBUG,
                "Idempotency store failed to " + operation() + " key '" + this.key + "' of '" + this.policy.name()
                        + "'; trying again until its lease ends",
                failure);
        try {
            this.time.scheduleHandOff(this::handOver, Duration.ofNanos(wait));
        }
        catch (RuntimeException ex) {
            logger.log(System.Logger.Level.ERROR, "Could not schedule the next try to " + operation() + " key '"
                    + this.key + "' of '" + this.policy.name() + "'", ex);
        }
    }

    private void handOver() {
        try {
            this.executor.execute(this);
        }
        catch (RuntimeException ex) {
            logger.log(System.Logger.Level.ERROR, "Could not run the next try to " + operation() + " key '" + this.key
                    + "' of '" + this.policy.name() + "'", ex);
        }
    }

    private String operation() {
        return this.complete ? "complete" : "release";
    }

}
