package dev.resilience.core;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;

import dev.resilience.annotation.OnInProgress;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.EncodedResult;
import dev.resilience.core.idempotency.IdempotencyInProgressException;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException;
import dev.resilience.core.idempotency.IdempotencyKeys;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import dev.resilience.core.idempotency.IdempotencyStoreException;
import dev.resilience.core.idempotency.NotReplayableResult;
import dev.resilience.core.time.Durations;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * The idempotency stage's state for one call: claims its key, waits while another call
 * holds it, and completes or releases the claim when the call ends.
 */
final class IdempotencyClaim {

    /** What a claim decided. */
    enum Decision {

        /** The key is this call's: the method may run. */
        CLAIMED,

        /** The call is over: replayed or refused. */
        SETTLED,

        /** Another call holds the key: claim again after {@link #waitNanos()}. */
        WAIT

    }

    private static final long IN_PROGRESS_POLL_NANOS = Duration.ofMillis(50).toNanos();

    private final IdempotencyPolicy policy;

    private final TimeSource time;

    private @Nullable String key;

    private @Nullable String storeKey;

    private @Nullable String ownerToken;

    /** When a call waiting for a key in progress gives up: a reading, which may wrap. */
    private long waitUntilNanos;

    private boolean waiting;

    private final Executor executor;

    private long claimedAtNanos;

    private long waitNanos;

    IdempotencyClaim(IdempotencyPolicy policy, TimeSource time, Executor executor) {
        this.policy = policy;
        this.time = time;
        this.executor = executor;
    }

    /**
     * Claims the call's key, or settles the call when it may not run.
     * @param execution the call
     * @return the decision
     */
    Decision claim(Execution<?> execution) {
        if (this.key == null) {
            if (execution.context.idempotencyKey() instanceof IdempotencyKeyException refused) {
                execution.stop(ExecutionStatus.FAILURE, refused);
                return Decision.SETTLED;
            }
            try {
                this.key = IdempotencyKeys.validate(execution.context.idempotencyKey());
                this.storeKey = this.policy.storeKey(execution.context.idempotencyScope(), this.key);
            }
            catch (IdempotencyKeyException ex) {
                execution.stop(ExecutionStatus.FAILURE, ex);
                return Decision.SETTLED;
            }
        }
        ClaimResult claim;
        this.claimedAtNanos = this.time.nanoTime();
        try {
            claim = this.policy.store()
                .claim(this.storeKey, execution.context.fingerprint(), this.policy.inProgressTtl());
            if (claim == null) {
                throw new IdempotencyStoreException(
                        "Idempotency store answered a claim of a key of '" + this.policy.name() + "' with nothing");
            }
        }
        catch (RuntimeException ex) {
            execution.notifyIdempotency(this.policy.name(), IdempotencyOutcome.STORE_ERROR);
            execution.stop(ExecutionStatus.ERROR,
                    (ex instanceof IdempotencyStoreException) ? ex : new IdempotencyStoreException(
                            "Idempotency store failed to claim a key of '" + this.policy.name() + "'", ex));
            return Decision.SETTLED;
        }
        if (claim instanceof ClaimResult.Acquired acquired) {
            this.ownerToken = acquired.ownerToken();
            execution.notifyIdempotency(this.policy.name(), IdempotencyOutcome.EXECUTED);
            return Decision.CLAIMED;
        }
        if (claim instanceof ClaimResult.Completed completed) {
            return replay(execution, completed.value());
        }
        if (claim instanceof ClaimResult.InProgress inProgress) {
            return whileInProgress(execution, inProgress.leaseExpiresAt());
        }
        execution.notifyIdempotency(this.policy.name(), IdempotencyOutcome.MISMATCH);
        execution.stop(ExecutionStatus.FAILURE, new IdempotencyKeyMismatchException(this.key));
        return Decision.SETTLED;
    }

    private Decision replay(Execution<?> execution, @Nullable Object stored) {
        Object value;
        try {
            if (stored instanceof NotReplayableResult notReplayable) {
                throw new IdempotencyResultUnavailableException(this.key, notReplayable.reason());
            }
            value = (stored instanceof EncodedResult encoded) ? encoded.decode(this.policy.resultType()) : stored;
        }
        catch (IdempotencyResultUnavailableException ex) {
            return unavailable(execution, ex);
        }
        catch (RuntimeException ex) {
            return unavailable(execution, new IdempotencyResultUnavailableException(this.key,
                    "the stored result cannot be read as " + this.policy.resultType().getTypeName(), ex));
        }
        execution.notifyIdempotency(this.policy.name(), IdempotencyOutcome.REPLAYED);
        execution.replay(value);
        return Decision.SETTLED;
    }

    private Decision unavailable(Execution<?> execution, IdempotencyResultUnavailableException error) {
        execution.notifyIdempotency(this.policy.name(), IdempotencyOutcome.UNAVAILABLE);
        execution.stop(ExecutionStatus.REJECTED, error);
        return Decision.SETTLED;
    }

    private Decision whileInProgress(Execution<?> execution, Instant leaseExpiresAt) {
        long now = this.time.nanoTime();
        if (this.policy.onInProgress() == OnInProgress.WAIT) {
            if (!this.waiting) {
                this.waiting = true;
                this.waitUntilNanos = now + Durations.toNanos(this.policy.inProgressTtl());
            }
            long left = this.waitUntilNanos - now;
            if (left > 0) {
                this.waitNanos = Math.min(IN_PROGRESS_POLL_NANOS, left);
                return Decision.WAIT;
            }
        }
        execution.notifyIdempotency(this.policy.name(), IdempotencyOutcome.IN_PROGRESS);
        execution.stop(ExecutionStatus.REJECTED, new IdempotencyInProgressException(this.key, leaseExpiresAt));
        return Decision.SETTLED;
    }

    /**
     * Completes the claimed key with the call's value, or releases it when the call
     * failed. A value the store cannot keep completes the key as not replayable. When the
     * store fails, the call's outcome stands and the settlement is retried in the
     * background until the lease ends; a failed completion is counted as
     * {@link IdempotencyOutcome#COMPLETE_FAILED}. Never throws.
     * @param execution the call
     * @param success whether the call produced a value
     * @param value the value
     */
    void settle(Execution<?> execution, boolean success, @Nullable Object value) {
        String token = this.ownerToken;
        if (token == null || this.key == null || this.storeKey == null) {
            return;
        }
        this.ownerToken = null;
        ClaimSettlement settlement = new ClaimSettlement(this.policy, this.key, this.storeKey, token, success, value,
                this.time, this.executor, this.claimedAtNanos + Durations.toNanos(this.policy.inProgressTtl()));
        if (!settlement.tryOnce() && success) {
            execution.notifyIdempotency(this.policy.name(), IdempotencyOutcome.COMPLETE_FAILED);
        }
    }

    /**
     * Returns how long to wait before claiming again, after a {@link Decision#WAIT}.
     * @return the wait in nanoseconds
     */
    long waitNanos() {
        return this.waitNanos;
    }

    /**
     * Returns the caller's key once validated.
     * @return the key, or {@code null} before validation or when it was refused
     */
    @Nullable String key() {
        return this.key;
    }

}
