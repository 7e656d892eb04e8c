package dev.resilience.redis;

import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Reads Redis's {@code maxmemory-policy} at startup and again after a reconnection, and logs
 * a WARN when it may evict the stores' keys ({@code allkeys-*}, {@code volatile-*}): an evicted
 * completed entry lets a repeated request run again, an evicted dead letter is lost. One
 * check serves every Redis store on one connection factory, so a policy is warned about once
 * per (re)connection.
 *
 * <p>The stores tell it of their commands' outcomes: any failure marks the connection as
 * suspect, and the first success after it checks again, on a thread of its own, so no call
 * waits for it. On the hot path that costs one volatile read. A Redis that refuses
 * {@code CONFIG GET} (as some managed offers do) is logged at INFO as not checked and never
 * fails a start. Thread-safe.
 */
public final class RedisEvictionPolicyCheck implements SmartInitializingSingleton {

    private static final Log logger = LogFactory.getLog(RedisEvictionPolicyCheck.class);

    private static final String POLICY = "maxmemory-policy";

    private final RedisConnectionFactory connectionFactory;

    private volatile boolean suspect;

    private final AtomicBoolean checking = new AtomicBoolean();

    /**
     * Creates a check of the Redis behind a connection factory.
     * @param connectionFactory the factory of the stores' connections
     */
    public RedisEvictionPolicyCheck(RedisConnectionFactory connectionFactory) {
        this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
    }

    /**
     * Checks the policy once the application's beans exist.
     */
    @Override
    public void afterSingletonsInstantiated() {
        check();
    }

    /**
     * Reads the policy now and logs a WARN if it may evict the stores' keys; when it cannot be
     * read, logs so at INFO and checks again after the next command that succeeds.
     * @return the policy, or {@code null} if it could not be read
     */
    public @Nullable String check() {
        String policy;
        try (RedisConnection connection = this.connectionFactory.getConnection()) {
            Properties config = connection.serverCommands().getConfig(POLICY);
            policy = (config != null) ? config.getProperty(POLICY) : null;
        }
        catch (RuntimeException ex) {
            this.suspect = true;
            logger.info("Could not check Redis's " + POLICY + " for the resilience stores (" + ex.getMessage()
                    + "); make sure it is noeviction or the Redis is dedicated to them");
            return null;
        }
        if (policy == null) {
            logger.info("Could not check Redis's " + POLICY + " for the resilience stores: CONFIG GET answered none");
        }
        else if (policy.startsWith("allkeys-") || policy.startsWith("volatile-")) {
            logger.warn("Redis's " + POLICY + " '" + policy + "' may evict the resilience stores' keys: an evicted "
                    + "idempotency entry lets a repeated request run again, an evicted dead letter is lost. Set "
                    + POLICY + " to noeviction (a full Redis then fails closed) or use a Redis dedicated to them");
        }
        else {
            logger.debug("Redis's " + POLICY + " is '" + policy + "'");
        }
        return policy;
    }

    /**
     * Notes that a command failed, so that the next success checks again.
     */
    void failed() {
        this.suspect = true;
    }

    /**
     * Notes that a command succeeded: after a failure, checks again in the background.
     */
    void succeeded() {
        if (this.suspect && this.checking.compareAndSet(false, true)) {
            this.suspect = false;
            Thread thread = new Thread(this::checkAgain, "resilience-redis-eviction-check");
            thread.setDaemon(true);
            thread.start();
        }
    }

    private void checkAgain() {
        try {
            check();
        }
        finally {
            this.checking.set(false);
        }
    }
}
