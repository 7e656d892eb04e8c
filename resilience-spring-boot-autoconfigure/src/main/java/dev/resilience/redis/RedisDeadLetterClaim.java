package dev.resilience.redis;

import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterClaim;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * A claim of a dead letter in the {@link RedisDeadLetterStore}: the key
 * {@code {<name>}:claim:<id>} holding the claim's token, which each end of the claim
 * checks, so that a claim that ran out never ends the claim taken after it.
 */
final class RedisDeadLetterClaim implements DeadLetterClaim {

    /** The most releases sent without waiting that wait for Redis at once. */
    static final int MAX_ABANDONED = 1024;

    private static final Log logger = LogFactory.getLog(RedisDeadLetterStore.class);

    private static final RedisScript<Long> COMPLETE = LuaScript.load("deadletter-complete.lua", Long.class);

    private static final RedisScript<Long> RELEASE = LuaScript.load("deadletter-release.lua", Long.class);

    private final DeadLetter deadLetter;

    private final BoundedRedis redis;

    private final List<String> keys;

    private final String token;

    private final Supplier<String> now;

    private final Semaphore abandoned;

    /**
     * Creates the claim.
     * @param keys the store's order, entries and expiry keys, then the claim's key
     */
    RedisDeadLetterClaim(DeadLetter deadLetter, BoundedRedis redis, List<String> keys, String token,
            Supplier<String> now, Semaphore abandoned) {
        this.deadLetter = deadLetter;
        this.redis = redis;
        this.keys = keys;
        this.token = token;
        this.now = now;
        this.abandoned = abandoned;
    }

    /**
     * Sends the release of a claim as the script's text, without waiting for Redis, once
     * a claim or a release that failed or timed out, and may still land, has ended: it
     * then lands after it, even where Redis lost its script cache meanwhile.
     */
    static void abandon(BoundedRedis redis, String claimKey, String token, Semaphore abandoned) {
        try {
            if (redis.send(RELEASE, List.of(claimKey), abandoned, token) == null) {
                logger.warn("The release of " + claimKey + " was not sent: " + MAX_ABANDONED
                        + " releases wait for Redis already; the letter can be re-driven once its claim runs out");
            }
        }
        catch (RuntimeException ex) {
            logger.warn("The release of " + claimKey + " could not be sent; the letter can be re-driven once its"
                    + " claim runs out", ex);
        }
    }

    @Override
    public DeadLetter deadLetter() {
        return this.deadLetter;
    }

    @Override
    public boolean complete() {
        return Long.valueOf(1)
            .equals(this.redis.script(COMPLETE, this.keys, this.deadLetter.id(), this.now.get(), this.token));
    }

    /**
     * {@inheritDoc}
     * <p>
     * Never throws: when Redis fails or does not answer in time, the release is sent
     * again without waiting, so that it lands when Redis answers; the letter stays.
     */
    @Override
    public void release() {
        String claimKey = this.keys.get(3);
        try {
            this.redis.scriptOrElse(RELEASE, List.of(claimKey),
                    () -> abandon(this.redis, claimKey, this.token, this.abandoned), this.token);
        }
        catch (RuntimeException ex) {
            logger.warn("Redis failed to end the claim of dead letter " + this.deadLetter.id()
                    + " in time; its release is sent again without waiting, and the letter stays", ex);
        }
    }

}
