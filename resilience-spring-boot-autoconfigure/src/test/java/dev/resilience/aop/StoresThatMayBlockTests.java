package dev.resilience.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.RateLimited;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.ratelimiter.RateLimiterStore;
import dev.resilience.core.ratelimiter.SharedPermits;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call of a method returning {@code Mono} whose pipeline takes permits from a store
 * outside the process, which waits for its answer, starts on the pipeline's executor when
 * it is subscribed on a thread Reactor marks non-blocking, as one with a store of
 * idempotency keys, last good values or dead letters does.
 */
class StoresThatMayBlockTests {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void sharedRateLimiterPermitOfACallSubscribedOnAParallelThreadIsTakenOnTheExecutor() {
        ExecutorService steps = Executors.newFixedThreadPool(2, namedThreads());
        RecordingPermitStore permits = new RecordingPermitStore();
        try {
            new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                        ResilienceAutoConfiguration.class))
                .withPropertyValues("resilience.async.executor=storeSteps")
                .withBean("storeSteps", ExecutorService.class, () -> steps)
                .withBean(RateLimiterStore.class, () -> permits)
                .withBean(Catalog.class)
                .run((context) -> {
                    Catalog catalog = context.getBean(Catalog.class);

                    StepVerifier.create(catalog.browse().subscribeOn(Schedulers.parallel()))
                        .expectNext("page")
                        .expectComplete()
                        .verify(BOUND);

                    assertThat(permits.takingThreads()).as("the thread that waited for the store's answer")
                        .singleElement()
                        .satisfies((thread) -> assertThat(thread).startsWith("store-step-"));
                });
        }
        finally {
            steps.shutdownNow();
        }
    }

    private static ThreadFactory namedThreads() {
        AtomicInteger count = new AtomicInteger();
        return (task) -> {
            Thread thread = new Thread(task, "store-step-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * A store of permits that admits every call at once and records the threads that
     * asked it, as a store waiting for its server's answer would be asked.
     */
    static class RecordingPermitStore implements RateLimiterStore {

        private final List<String> takingThreads = new CopyOnWriteArrayList<>();

        List<String> takingThreads() {
            return this.takingThreads;
        }

        @Override
        public SharedPermits permits(String name, RateLimiterConfig config) {
            return new SharedPermits() {

                @Override
                public long take(long now, long maxWaitNanos) {
                    RecordingPermitStore.this.takingThreads.add(Thread.currentThread().getName());
                    return 0;
                }

                @Override
                public boolean giveBack(long now, long waitNanos) {
                    return true;
                }

                @Override
                public int availablePermits(long now) {
                    return 1;
                }

                @Override
                public String store() {
                    return "recording";
                }

                @Override
                public long storeErrors() {
                    return 0;
                }

            };
        }

    }

    static class Catalog {

        @RateLimited(value = "catalog-browse", limit = 10, period = "1s", store = "redis")
        public Mono<String> browse() {
            return Mono.just("page");
        }

    }

}
