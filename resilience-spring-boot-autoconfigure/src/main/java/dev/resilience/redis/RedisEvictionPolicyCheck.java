package dev.resilience.redis;

import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.core.time.Durations;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Reads Redis's {@code maxmemory-policy} at startup and again after a reconnection, and
 * logs a WARN when it may evict the stores' keys ({@code allkeys-*}, {@code volatile-*}):
 * an evicted completed entry lets a repeated request run again, an evicted dead letter is
 * lost, an evicted rate limiter (whose keys all expire, so {@code volatile-*} evicts them
 * too) admits a full burst again. One check serves every Redis store on one connection
 * factory, so a policy is warned about once per (re)connection.
 *
 * <p>
 * The stores tell it of their commands' outcomes: any failure marks the connection as
 * suspect, and the first success after it checks again, on a thread of its own, so no
 * call waits for it. On the hot path that costs one volatile read. At most one check runs
 * at a time, and the start waits for one at most the timeout: a Redis that does not
 * answer is logged at INFO as not checked and checked again once it answers. A Redis that
 * refuses {@code CONFIG GET} (renamed away or denied by an ACL, as some managed offers
 * do) is logged at INFO as not checked, never fails a start and is not asked again until
 * a store's command fails. Thread-safe.
 */
public final class RedisEvictionPolicyCheck implements SmartInitializingSingleton {

    /** The longest the start waits for the policy by default: 2 seconds. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

    private static final Log logger = LogFactory.getLog(RedisEvictionPolicyCheck.class);

    private static final String POLICY = "maxmemory-policy";

    private static final String NOT_CHECKED = "Could not check Redis's " + POLICY + " for the resilience stores";

    private final RedisConnectionFactory connectionFactory;

    private final Duration timeout;

    private volatile boolean suspect;

    private final AtomicBoolean checking = new AtomicBoolean();

    /**
     * Creates a check of the Redis behind a connection factory that waits for the policy
     * at most {@link #DEFAULT_TIMEOUT}.
     * @param connectionFactory the factory of the stores' connections
     */
    public RedisEvictionPolicyCheck(RedisConnectionFactory connectionFactory) {
        this(connectionFactory, DEFAULT_TIMEOUT);
    }

    /**
     * Creates a check of the Redis behind a connection factory.
     * @param connectionFactory the factory of the stores' connections
     * @param timeout the longest {@link #check()} waits for Redis's answer; positive
     * @throws IllegalArgumentException if the timeout is not positive
     */
    public RedisEvictionPolicyCheck(RedisConnectionFactory connectionFactory, Duration timeout) {
        this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        this.timeout = timeout;
    }

    /**
     * Checks the policy once the application's beans exist.
     */
    @Override
    public void afterSingletonsInstantiated() {
        check();
    }

    /**
     * Reads the policy, waiting at most the timeout, and logs a WARN if it may evict the
     * stores' keys; when it cannot be read in time, logs so at INFO and, unless Redis
     * refused the command, checks again after the next command that succeeds.
     * @return the policy, or {@code null} if it could not be read in time or a check is
     * already under way
     */
    public @Nullable String check() {
        CompletableFuture<@Nullable String> policy = startCheck();
        if (policy == null) {
            return null;
        }
        try {
            return policy.get(Durations.toNanos(this.timeout), TimeUnit.NANOSECONDS);
        }
        catch (TimeoutException ex) {
            this.suspect = true;
            logger.info(NOT_CHECKED + " (Redis did not answer within " + this.timeout.toMillis()
                    + " ms); make sure it is noeviction or the Redis is dedicated to them");
            return null;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        }
        catch (ExecutionException ex) {
            return null;
        }
    }

    /**
     * Checks the policy, in the background, after the next command of a store that
     * succeeds: for a check that is not a bean, made for a store whose first command
     * comes after the start.
     */
    public void checkAfterNextSuccess() {
        this.suspect = true;
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
        if (this.suspect) {
            startCheck();
        }
    }

    /**
     * Starts a check on a thread of its own, unless one is under way.
     * @return the policy to come, or {@code null} if a check is under way
     */
    private @Nullable CompletableFuture<@Nullable String> startCheck() {
        if (!this.checking.compareAndSet(false, true)) {
            return null;
        }
        this.suspect = false;
        CompletableFuture<@Nullable String> policy = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                policy.complete(read());
            }
            catch (Throwable ex) {
                policy.completeExceptionally(ex);
            }
            finally {
                this.checking.set(false);
            }
        }, "resilience-redis-eviction-check");
        thread.setDaemon(true);
        thread.start();
        return policy;
    }

    private @Nullable String read() {
        String policy;
        try (RedisConnection connection = this.connectionFactory.getConnection()) {
            try {
                Properties config = connection.serverCommands().getConfig(POLICY);
                policy = (config != null) ? config.getProperty(POLICY) : null;
            }
            catch (RuntimeException ex) {
                if (answers(connection)) {
                    logger.info(NOT_CHECKED + ": Redis refused CONFIG GET (" + ex.getMessage()
                            + "); make sure it is noeviction or the Redis is dedicated to them");
                    return null;
                }
                throw ex;
            }
        }
        catch (RuntimeException ex) {
            this.suspect = true;
            logger.info(NOT_CHECKED + " (" + ex.getMessage()
                    + "); make sure it is noeviction or the Redis is dedicated to them");
            return null;
        }
        if (policy == null) {
            logger.info(NOT_CHECKED + ": CONFIG GET answered none");
        }
        else if (policy.startsWith("allkeys-") || policy.startsWith("volatile-")) {
            logger.warn("Redis's " + POLICY + " '" + policy + "' may evict the resilience stores' keys: an evicted "
                    + "idempotency entry lets a repeated request run again, an evicted dead letter is lost, an "
                    + "evicted rate limiter admits a full burst again. Set " + POLICY
                    + " to noeviction (a full Redis then fails closed) or use a Redis dedicated to them");
        }
        else {
            logger.debug("Redis's " + POLICY + " is '" + policy + "'");
        }
        return policy;
    }

    /**
     * Returns whether Redis still answers on a connection whose command failed: whether
     * it refused the command rather than being unreachable.
     */
    private static boolean answers(RedisConnection connection) {
        try {
            return connection.ping() != null;
        }
        catch (RuntimeException ex) {
            return false;
        }
    }

}
