package dev.resilience.aop;

import java.time.Duration;

import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.Durations;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogMessage;

/**
 * Warns at startup of an idempotent method whose calls may outlive the in-progress lease
 * ({@code resilience.idempotency.in-progress-ttl}): when a lease ends before its call,
 * another call with the same key may run the method again. A call's worst case comes from
 * its resolved retry policy: {@code max-duration} when set; else every attempt running
 * into its {@code attempt-timeout}, with a wait of {@code max-delay} (the longest any
 * backoff or {@code Retry-After} hint waits) between attempts; else it is unbounded. A
 * method without {@code @Retryable} has nothing that bounds its calls, so it is unbounded
 * too. Fallback methods run inside the lease as well and are not counted.
 */
final class IdempotencyLeaseCheck {

    private static final org.apache.commons.logging.Log logger = org.apache.commons.logging.LogFactory
        .getLog(IdempotencyLeaseCheck.class);

    private IdempotencyLeaseCheck() {
    }

    /**
     * Logs a WARN when a method's worst case is longer than its lease, or unbounded.
     * @param method the method and bean, as {@code SimpleClassName#method of bean 'name'}
     * @param idempotency the method's idempotency policy
     * @param retryName the method's retry instance, if any
     * @param retry the retry instance's resolved policy, if any
     */
    static void check(String method, IdempotencyPolicy idempotency, @Nullable String retryName,
            @Nullable RetryPolicy retry) {
        String ttl = Durations.format(idempotency.inProgressTtl());
        String lease = "Idempotent method " + method
                + " may outlive its lease: resilience.idempotency.in-progress-ttl is " + ttl + ", but ";
        String consequence = ". A call still running when its lease ends lets another call with the same key run the "
                + "method again.";
        if (retry == null) {
            logger.warn(LogMessage.format(
                    "%snothing bounds how long a call takes%s Bound its calls by the lease, "
                            + "such as with @Retryable(maxAttempts = 1, maxDuration = \"%s\") (one attempt: no retry).",
                    lease, consequence, ttl));
            return;
        }
        Duration maxDuration = retry.maxDuration();
        Duration attemptTimeout = retry.attemptTimeout();
        String fix = " Set resilience.retry.instances." + retryName + ".max-duration to at most the lease, or raise "
                + "resilience.idempotency.in-progress-ttl.";
        if (maxDuration == null && attemptTimeout == null) {
            logger.warn(LogMessage.format("%sretry instance '%s' sets neither attempt-timeout nor max-duration%s%s",
                    lease, retryName, consequence, fix));
            return;
        }
        if (maxDuration != null) {
            if (maxDuration.compareTo(idempotency.inProgressTtl()) > 0) {
                logger.warn(LogMessage.format("%sa call can take its max-duration of %s%s%s", lease,
                        Durations.format(maxDuration), consequence, fix));
            }
            return;
        }
        int waits = retry.maxAttempts() - 1;
        Duration maxDelay = retry.backoff().maxDelay();
        Duration worstCase = attemptTimeout.multipliedBy(retry.maxAttempts()).plus(maxDelay.multipliedBy(waits));
        if (worstCase.compareTo(idempotency.inProgressTtl()) > 0) {
            logger.warn(
                    LogMessage.format("%sa call can take %s (%d attempts of at most %s and %d waits of at most %s)%s%s",
                            lease, Durations.format(worstCase), retry.maxAttempts(), Durations.format(attemptTimeout),
                            waits, Durations.format(maxDelay), consequence, fix));
        }
    }

}
