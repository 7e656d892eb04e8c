package dev.resilience.aop;

import java.time.Duration;

import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.Durations;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogMessage;

/**
 * Warns at startup of an idempotent method whose calls may outlive the in-progress lease
 * ({@code resilience.idempotency.in-progress-ttl}): when a lease ends before its call,
 * another call with the same key may run the method again. A call's worst case comes from
 * its pipeline: the retry policy's {@code max-duration} when set; else every attempt
 * running into its limit, with a wait of {@code max-delay} (the longest any backoff or
 * {@code Retry-After} hint waits) between attempts, one attempt without
 * {@code @Retryable}. An attempt's limit is the shorter of the retry policy's
 * {@code attempt-timeout} and the method's {@code @TimeLimited} timeout, each try of a
 * hedged attempt having its own, so that the last hedge, started {@code maxHedges} delays
 * after the first try, may end that long after it. A method that has neither a
 * {@code max-duration} nor a limit per attempt is unbounded. Fallback methods run inside
 * the lease as well and are not counted.
 */
final class IdempotencyLeaseCheck {

    private static final org.apache.commons.logging.Log logger = org.apache.commons.logging.LogFactory
        .getLog(IdempotencyLeaseCheck.class);

    private static final String RAISE_LEASE = " or raise resilience.idempotency.in-progress-ttl.";

    private IdempotencyLeaseCheck() {
    }

    /**
     * Logs a WARN when an idempotent method's worst case is longer than its lease, or
     * unbounded; a pipeline without idempotency is not checked.
     * @param method the method and bean, as {@code SimpleClassName#method of bean 'name'}
     * @param pipeline the method's pipeline
     * @param retryName the method's retry instance, if any
     * @param timeLimiterName the method's time limiter, if any
     */
    static void check(String method, ResiliencePipeline pipeline, @Nullable String retryName,
            @Nullable String timeLimiterName) {
        IdempotencyPolicy idempotency = pipeline.idempotency();
        if (idempotency == null) {
            return;
        }
        Duration lease = idempotency.inProgressTtl();
        String ttl = Durations.format(lease);
        String outlives = "Idempotent method " + method
                + " may outlive its lease: resilience.idempotency.in-progress-ttl is " + ttl + ", but ";
        String consequence = ". A call still running when its lease ends lets another call with the same key run the "
                + "method again.";
        RetryPolicy retry = pipeline.retry();
        String maxDurationFix = " Set resilience.retry.instances." + retryName + ".max-duration to at most the lease,"
                + RAISE_LEASE;
        Duration maxDuration = (retry != null) ? retry.maxDuration() : null;
        if (maxDuration != null) {
            if (maxDuration.compareTo(lease) > 0) {
                logger.warn(LogMessage.format("%sa call can take its max-duration of %s%s%s", outlives,
                        Durations.format(maxDuration), consequence, maxDurationFix));
            }
            return;
        }
        Duration tryLimit = shorter((retry != null) ? retry.attemptTimeout() : null, pipeline.timeLimit());
        if (tryLimit == null && retry == null) {
            logger.warn(LogMessage
                .format("%snothing bounds how long a call takes%s Bound its calls by the lease, such as with "
                        + "@TimeLimited(timeout = \"%s\") or @Retryable(maxAttempts = 1, maxDuration = \"%s\") "
                        + "(one attempt: no retry).", outlives, consequence, ttl, ttl));
            return;
        }
        if (tryLimit == null) {
            logger.warn(LogMessage.format("%sretry instance '%s' sets neither attempt-timeout nor max-duration%s%s",
                    outlives, retryName, consequence, maxDurationFix));
            return;
        }
        HedgingPolicy hedging = pipeline.hedging();
        Duration lastHedge = (hedging != null) ? hedging.delay().multipliedBy(hedging.maxHedges()) : Duration.ZERO;
        Duration attempt = tryLimit.plus(lastHedge);
        int attempts = (retry != null) ? retry.maxAttempts() : 1;
        Duration maxDelay = (retry != null) ? retry.backoff().maxDelay() : Duration.ZERO;
        Duration worstCase = attempt.multipliedBy(attempts).plus(maxDelay.multipliedBy(attempts - 1));
        if (worstCase.compareTo(lease) <= 0) {
            return;
        }
        StringBuilder breakdown = new StringBuilder((attempts == 1) ? "one attempt" : attempts + " attempts")
            .append(" of at most ")
            .append(Durations.format(attempt));
        if (hedging != null) {
            breakdown.append(": tries of at most ")
                .append(Durations.format(tryLimit))
                .append(", the last of ")
                .append(hedging.maxHedges())
                .append((hedging.maxHedges() == 1) ? " hedge" : " hedges")
                .append(" starting after ")
                .append(Durations.format(lastHedge));
        }
        if (attempts > 1) {
            breakdown.append(" and ")
                .append(attempts - 1)
                .append(" waits of at most ")
                .append(Durations.format(maxDelay));
        }
        String fix = (retry != null) ? maxDurationFix
                : " Set resilience.time-limiter.instances." + timeLimiterName + ".timeout to at most the lease"
                        + ((hedging != null) ? " less the last hedge's start," : ",") + RAISE_LEASE;
        logger.warn(LogMessage.format("%sa call can take %s (%s)%s%s", outlives, Durations.format(worstCase), breakdown,
                consequence, fix));
    }

    private static @Nullable Duration shorter(@Nullable Duration first, @Nullable Duration second) {
        if (first == null || second == null) {
            return (first != null) ? first : second;
        }
        return (first.compareTo(second) <= 0) ? first : second;
    }

}
