package dev.resilience.redis;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.RedisSystemException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * While Redis does not answer, the threads that send a store's commands hold a bounded
 * queue: the command beyond it is refused at once instead of waiting in memory for as
 * long as the outage lasts.
 */
class CommandThreadsTests {

    @Test
    void aPoolWhoseThreadsAreHeldQueuesABoundedNumberOfCommandsAndRefusesTheNext() throws InterruptedException {
        ThreadPoolExecutor pool = CommandThreads.pool(1, "test-redis-");
        CountDownLatch redisAnswers = new CountDownLatch(1);
        try {
            pool.execute(() -> awaitQuietly(redisAnswers));
            for (int command = 0; command < CommandThreads.MAX_WAITING_COMMANDS; command++) {
                pool.execute(() -> {
                });
            }

            assertThat(pool.getQueue()).hasSize(CommandThreads.MAX_WAITING_COMMANDS);
            assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> pool.execute(() -> {
            }));
            assertThat(pool.getThreadFactory().newThread(() -> {
            }).isDaemon()).isTrue();
        }
        finally {
            redisAnswers.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aRefusedCommandIsAStoreErrorThatSaysWhy() {
        RejectedExecutionException rejection = new RejectedExecutionException("full");

        RedisSystemException error = CommandThreads.tooManyWaiting(rejection);

        assertThat(error).hasMessage("1024 commands wait for Redis already").hasCause(rejection);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

}
