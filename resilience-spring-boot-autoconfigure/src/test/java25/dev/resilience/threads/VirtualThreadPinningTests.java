package dev.resilience.threads;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.OnInProgress;
import dev.resilience.annotation.RateLimited;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.redis.RedisServer;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hot paths of the pipeline on virtual threads, with Spring Boot's virtual-thread
 * task executor ({@code spring.threads.virtual.enabled}): retries with backoff, a
 * breaker, a bulkhead and a rate limiter that make callers wait, idempotency keys
 * claimed, waited for and replayed in the memory store and in Redis, and asynchronous
 * attempts continued on the application's executor. A JFR stream records every
 * {@code jdk.VirtualThreadPinned} event (threshold zero) while hundreds of virtual
 * threads call; none may occur once the classes of the paths are loaded (the JVM may pin
 * a virtual thread that loads a class). Test sources of the {@code java-25} profile: on
 * Java 24 and later a virtual thread waiting inside {@code synchronized} does not pin
 * (JEP 491), so this recording sees class initializers and native frames only, and
 * {@code MonitorFreeCodeTests} keeps monitors out of the main code for Java 21.
 */
class VirtualThreadPinningTests {

    private static final int CALLERS = 200;

    private static final int KEYS = 50;

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, TaskExecutionAutoConfiguration.class,
                ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
        .withPropertyValues(FingerprintSecret.PROPERTY, "spring.threads.virtual.enabled=true",
                "spring.application.name=payments",
                // the breakers count every attempt and never open: the failed first
                // attempts are by design
                "resilience.circuit-breaker.defaults.sliding-window-size=1000",
                "resilience.circuit-breaker.defaults.minimum-calls=1000",
                // every first attempt fails, more than a retry budget lets be retried
                "resilience.retry.defaults.budget.enabled=false")
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withBean(Payments.class);

    @Test
    void callsOnVirtualThreadsWithTheMemoryStoreNeverPinTheirCarrier() {
        this.contextRunner.run(this::callsNeverPin);
    }

    @Test
    void callsOnVirtualThreadsWithTheRedisStoreNeverPinTheirCarrier() {
        this.contextRunner.withPropertyValues("resilience.idempotency.store=redis").run(this::callsNeverPin);
    }

    @Test
    void aVirtualThreadBlockedInAClassInitializerIsRecordedAsPinned() throws Exception {
        List<RecordedEvent> pinned = recordPinned(() -> {
            Thread thread = Thread.ofVirtual().start(SlowlyInitialized::initialize);
            thread.join();
            return null;
        });

        assertThat(pinned).as("the recording sees pinning where there is some")
            .anySatisfy((event) -> assertThat(frames(event)).anyMatch((frame) -> frame.contains("SlowlyInitialized")));
    }

    private void callsNeverPin(AssertableApplicationContext context) throws Exception {
        Payments payments = context.getBean(Payments.class);
        // once before the recording, so that every class of the paths is loaded: the JVM
        // may pin
        // a virtual thread while it loads a class, once per class, whatever the code
        calls(payments, Executors.newVirtualThreadPerTaskExecutor(), "warm-");
        payments.reset();

        List<RecordedEvent> pinned = recordPinned(() -> {
            calls(payments, Executors.newVirtualThreadPerTaskExecutor(), "key-");
            return null;
        });

        assertThat(payments.threads()).as("the methods ran on virtual threads only").containsOnly(true);
        assertThat(payments.charges()).as("per key, one call ran: a failed attempt and its retry; the others replayed")
            .hasSize(KEYS)
            .allSatisfy((key, attempts) -> assertThat(attempts.get()).as(key).isEqualTo(2));
        assertThat(payments.laterAttempts()).as("a first failed attempt and its retry per call")
            .hasSize(CALLERS)
            .allSatisfy((call, attempts) -> assertThat(attempts.get()).as(call).isEqualTo(2));
        assertThat(pinned).extracting(VirtualThreadPinningTests::frames).isEmpty();
    }

    private static void calls(Payments payments, ExecutorService callers, String prefix) throws Exception {
        try (callers) {
            List<Future<String>> charged = new ArrayList<>();
            List<Future<String>> later = new ArrayList<>();
            for (int i = 0; i < CALLERS; i++) {
                String key = prefix + (i % KEYS);
                charged.add(callers.submit(() -> payments.charge(key)));
                int call = i;
                later.add(callers.submit(() -> payments.chargeLater(key, prefix + call).get(30, TimeUnit.SECONDS)));
            }
            for (int i = 0; i < CALLERS; i++) {
                String receipt = "receipt-" + prefix + (i % KEYS);
                assertThat(charged.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(receipt);
                assertThat(later.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(receipt);
            }
        }
    }

    private static List<RecordedEvent> recordPinned(Callable<Void> work) throws Exception {
        List<RecordedEvent> pinned = new CopyOnWriteArrayList<>();
        try (RecordingStream recording = new RecordingStream()) {
            recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            recording.onEvent("jdk.VirtualThreadPinned", pinned::add);
            recording.startAsync();
            work.call();
            recording.stop();
        }
        return pinned;
    }

    private static List<String> frames(RecordedEvent event) {
        return event.getStackTrace()
            .getFrames()
            .stream()
            .map(RecordedFrame::getMethod)
            .map((method) -> method.getType().getName() + "." + method.getName())
            .toList();
    }

    static class Payments {

        private final Map<String, AtomicInteger> charges = new ConcurrentHashMap<>();

        private final Set<Boolean> threads = ConcurrentHashMap.newKeySet();

        private final Map<String, AtomicInteger> laterAttempts = new ConcurrentHashMap<>();

        @Idempotent(key = "#key", onInProgress = OnInProgress.WAIT)
        @Retryable(name = "charge", maxAttempts = 3, delay = "1ms", jitter = "none")
        @CircuitGuarded("charge")
        @Bulkhead(name = "charge", maxConcurrentCalls = 4, maxWait = "30s")
        @RateLimited(name = "charge", limit = 100_000, period = "1s", timeout = "30s")
        public String charge(String key) {
            this.threads.add(Thread.currentThread().isVirtual());
            if (this.charges.computeIfAbsent(key, (charged) -> new AtomicInteger()).incrementAndGet() == 1) {
                sleep();
                throw new IllegalStateException("first attempt");
            }
            return "receipt-" + key;
        }

        @Retryable(name = "later", maxAttempts = 2, delay = "1ms", jitter = "none")
        @CircuitGuarded("later")
        public CompletableFuture<String> chargeLater(String key, String call) {
            this.threads.add(Thread.currentThread().isVirtual());
            int attempt = this.laterAttempts.computeIfAbsent(call, (attempts) -> new AtomicInteger()).incrementAndGet();
            return (attempt == 1) ? CompletableFuture.failedFuture(new IllegalStateException("first attempt"))
                    : CompletableFuture.completedFuture("receipt-" + key);
        }

        private static void sleep() {
            try {
                Thread.sleep(5);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }

        void reset() {
            this.charges.clear();
            this.threads.clear();
            this.laterAttempts.clear();
        }

        Map<String, AtomicInteger> charges() {
            return this.charges;
        }

        Set<Boolean> threads() {
            return this.threads;
        }

        Map<String, AtomicInteger> laterAttempts() {
            return this.laterAttempts;
        }

    }

    static final class SlowlyInitialized {

        static {
            try {
                Thread.sleep(20);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }

        private SlowlyInitialized() {
        }

        static void initialize() {
        }

    }

}
