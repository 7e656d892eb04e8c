package dev.resilience.redis;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The threads a Redis store sends its commands from when the caller's thread cannot:
 * daemon threads that end when idle, whose queue holds at most
 * {@value #MAX_WAITING_COMMANDS} commands, so that while Redis does not answer a command
 * beyond them fails at once rather than waiting in memory.
 */
final class CommandThreads {

    static final int MAX_WAITING_COMMANDS = 1024;

    private CommandThreads() {
    }

    /**
     * Creates a pool.
     * @param size its threads
     * @param threadNamePrefix the prefix of their names
     * @return the pool
     */
    static ThreadPoolExecutor pool(int size, String threadNamePrefix) {
        CustomizableThreadFactory threads = new CustomizableThreadFactory(threadNamePrefix);
        threads.setDaemon(true);
        ThreadPoolExecutor executor = new ThreadPoolExecutor(size, size, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(MAX_WAITING_COMMANDS), threads);
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /**
     * The failure of a command a full pool refused.
     * @param rejection the pool's refusal
     * @return the store error
     */
    static RedisSystemException tooManyWaiting(Throwable rejection) {
        return new RedisSystemException(MAX_WAITING_COMMANDS + " commands wait for Redis already", rejection);
    }

}
