package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.AttemptTimeoutException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The timer thread only fires timers, on the system clock and Spring Boot's task
 * executor: an asynchronous retry blocked in its synchronous part holds a thread of the
 * executor, not the timer, so another call's attempt timeout still fires on time, and a
 * {@code Mono} retried after a backoff is subscribed on the executor, not the timer.
 */
@SpringBootTest(classes = TimerThreadTests.TestApplication.class)
class TimerThreadTests {

    @Autowired
    private Downstream downstream;

    @Test
    void blockedAsyncRetryNeverDelaysAnotherCallsAttemptTimeout() {
        CompletableFuture<String> blocked = this.downstream.blockingRetry();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.downstream.retryThread() != null);

        long start = System.nanoTime();
        assertThatExceptionOfType(AttemptTimeoutException.class).isThrownBy(() -> this.downstream.slow());
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        System.out.printf("FIGURES timer: a 100ms attempt timeout fired after %d ms while an async retry blocked "
                + "thread %s%n", tookMillis, this.downstream.retryThread());
        assertThat(tookMillis).isLessThan(1500);
        assertThat(this.downstream.retryThread()).doesNotStartWith("resilience-timer");
        assertThat(blocked).isNotDone();
        this.downstream.release();
        assertThat(blocked.join()).isEqualTo("late");
    }

    @Test
    void monoRetriedAfterABackoffIsNeverSubscribedOnTheTimerThread() {
        StepVerifier.create(this.downstream.reactiveRetry())
            .expectNext("third subscription")
            .expectComplete()
            .verify(Duration.ofSeconds(10));

        System.out.printf("FIGURES timer: the subscriptions of a retried Mono ran on %s%n",
                this.downstream.reactiveThreads());
        assertThat(this.downstream.reactiveThreads()).hasSize(3)
            .noneSatisfy((name) -> assertThat(name).startsWith("resilience-timer"));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        Downstream downstream() {
            return new Downstream();
        }

    }

    static class Downstream {

        private final CountDownLatch release = new CountDownLatch(1);

        private final AtomicInteger asyncAttempts = new AtomicInteger();

        private volatile String retryThread;

        private final List<String> reactiveThreads = new CopyOnWriteArrayList<>();

        String retryThread() {
            return this.retryThread;
        }

        List<String> reactiveThreads() {
            return this.reactiveThreads;
        }

        @Retryable(value = "reactive-timer", maxAttempts = 3, delay = "10ms")
        public Mono<String> reactiveRetry() {
            return Mono.fromCallable(() -> {
                this.reactiveThreads.add(Thread.currentThread().getName());
                if (this.reactiveThreads.size() < 3) {
                    throw new IOException("refused");
                }
                return "third subscription";
            });
        }

        void release() {
            this.release.countDown();
        }

        @Retryable(value = "blocking-async", maxAttempts = 2, delay = "10ms")
        public CompletableFuture<String> blockingRetry() {
            if (this.asyncAttempts.incrementAndGet() == 1) {
                return CompletableFuture.failedFuture(new IOException("first attempt refused"));
            }
            this.retryThread = Thread.currentThread().getName();
            awaitRelease();
            return CompletableFuture.completedFuture("late");
        }

        @Retryable(value = "bounded", maxAttempts = 1, attemptTimeout = "100ms")
        public String slow() throws InterruptedException {
            Thread.sleep(2000);
            return "done";
        }

        private void awaitRelease() {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (this.release.getCount() > 0 && System.nanoTime() < deadline) {
                try {
                    this.release.await(100, TimeUnit.MILLISECONDS);
                }
                catch (InterruptedException ex) {
                    // blocks on regardless, as a badly behaved method would
                }
            }
        }

    }

}
