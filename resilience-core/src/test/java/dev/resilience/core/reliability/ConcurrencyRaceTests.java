package dev.resilience.core.reliability;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerListener;
import dev.resilience.core.circuitbreaker.CircuitBreakerMetrics;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.circuitbreaker.CircuitBreakerTransition;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * State changed from outside while traffic runs: manual breaker moves, lease expiry
 * pushed by another thread, a full dead-letter store under many writers.
 */
class ConcurrencyRaceTests {

    private static final IOException FAILURE = new IOException("down");

    private final ExecutorService executor = Executors.newFixedThreadPool(9);

    @AfterEach
    void shutDown() throws InterruptedException {
        this.executor.shutdownNow();
        assertThat(this.executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void breakerMovedByHandAThousandTimesDuringTrafficRejectsOnlyWithCallNotPermittedAndKeepsCountsConsistent()
            throws Exception {
        VirtualTimeSource clock = new VirtualTimeSource();
        CircuitBreaker breaker = CircuitBreaker.of("gateway",
                CircuitBreakerConfig.builder()
                    .slidingWindowSize(20)
                    .minimumCalls(10)
                    .failureRateThreshold(50)
                    .waitInOpen(Duration.ofSeconds(30))
                    .build(),
                clock);
        List<CircuitBreakerTransition> transitions = new java.util.concurrent.CopyOnWriteArrayList<>();
        breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                transitions.add(transition);
            }
        });
        ResiliencePipeline pipeline = ResiliencePipeline.builder("gateway")
            .timeSource(clock)
            .circuitBreaker(breaker)
            .build();
        AtomicBoolean flipping = new AtomicBoolean(true);
        AtomicLong calls = new AtomicLong();
        LongAdder ran = new LongAdder();
        LongAdder ranOk = new LongAdder();
        Map<ExecutionStatus, LongAdder> byStatus = new ConcurrentHashMap<>();
        List<Throwable> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch start = new CountDownLatch(1);

        List<Future<?>> callers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            callers.add(this.executor.submit(() -> {
                start.await();
                int i = 0;
                while (flipping.get() || i < 1_000) {
                    boolean fail = (i++ % 2) == 0;
                    ExecutionResult<String> result = pipeline.execute(() -> {
                        ran.increment();
                        if (fail) {
                            throw FAILURE;
                        }
                        ranOk.increment();
                        return "ok";
                    });
                    byStatus.computeIfAbsent(result.status(), (s) -> new LongAdder()).increment();
                    calls.incrementAndGet();
                    Throwable error = result.error();
                    if (error != null && error != FAILURE && !(error instanceof CallNotPermittedException)) {
                        unexpected.add(error);
                    }
                }
                return null;
            }));
        }
        CircuitBreakerState[] moves = { CircuitBreakerState.FORCED_OPEN, CircuitBreakerState.CLOSED,
                CircuitBreakerState.DISABLED };
        Future<?> flipper = this.executor.submit(() -> {
            start.await();
            try {
                for (int i = 0; i < 1_000; i++) {
                    breaker.transitionTo(moves[i % moves.length]);
                    long next = calls.get() + 50;
                    while (calls.get() < next) {
                        Thread.onSpinWait();
                    }
                }
            }
            finally {
                flipping.set(false);
            }
            return null;
        });
        start.countDown();
        flipper.get(30, TimeUnit.SECONDS);
        for (Future<?> caller : callers) {
            caller.get(30, TimeUnit.SECONDS);
        }

        assertThat(unexpected).isEmpty();
        long success = count(byStatus, ExecutionStatus.SUCCESS);
        long error = count(byStatus, ExecutionStatus.ERROR);
        long rejected = count(byStatus, ExecutionStatus.REJECTED);
        assertThat(byStatus.keySet()).isSubsetOf(ExecutionStatus.SUCCESS, ExecutionStatus.ERROR,
                ExecutionStatus.REJECTED);
        assertThat(success).isEqualTo(ranOk.sum());
        assertThat(success + error).isEqualTo(ran.sum());
        CircuitBreakerMetrics metrics = breaker.metrics();
        assertThat(metrics.state()).isEqualTo(moves[999 % moves.length]);
        assertThat(metrics.notPermittedCallsTotal()).isEqualTo(rejected);
        assertThat(metrics.successfulCallsTotal()).isBetween(0L, success);
        assertThat(metrics.failedCallsTotal()).isBetween(0L, error);
        assertThat(metrics.bufferedCalls()).isBetween(0, 20);
        assertThat(transitions).hasSizeGreaterThanOrEqualTo(999);
        assertThat(transitions).allSatisfy((transition) -> assertThat(
                transition.to() != CircuitBreakerState.OPEN || transition.from() == CircuitBreakerState.CLOSED)
            .as("legal %s", transition)
            .isTrue());
        assertThat(transitions).noneMatch((transition) -> transition.to() == CircuitBreakerState.HALF_OPEN);
        breaker.transitionTo(CircuitBreakerState.CLOSED);
        assertThat(breaker.metrics().bufferedCalls()).isZero();
        assertThat(pipeline.execute(() -> "after").value()).isEqualTo("after");
        System.out.printf("breaker flips: %d calls (%d success, %d error, %d rejected), %d transitions%n",
                success + error + rejected, success, error, rejected, transitions.size());
    }

    @Test
    void claimsRacingLeaseExpiryNeverLetTwoOwnersCompleteTheSameKey() throws Exception {
        VirtualTimeSource clock = new VirtualTimeSource();
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 10_000);
        Duration lease = Duration.ofSeconds(1);
        Duration ttl = Duration.ofDays(365);
        int keys = 500;
        Map<String, AtomicInteger> completedBy = new ConcurrentHashMap<>();
        Map<String, String> winner = new ConcurrentHashMap<>();
        Map<String, Object> replayed = new ConcurrentHashMap<>();
        LongAdder acquired = new LongAdder();
        LongAdder staleCompletesRefused = new LongAdder();
        AtomicBoolean working = new AtomicBoolean(true);
        AtomicLong advances = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);

        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            workers.add(this.executor.submit(() -> {
                start.await();
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int k = 0; k < keys; k++) {
                    String key = "order-" + k;
                    while (true) {
                        ClaimResult claim = store.claim(key, "fp", lease);
                        if (claim instanceof ClaimResult.Completed completed) {
                            replayed.merge(key, completed.value(), (a, b) -> {
                                assertThat(b).isEqualTo(a);
                                return a;
                            });
                            break;
                        }
                        if (claim instanceof ClaimResult.Acquired owner) {
                            acquired.increment();
                            if (random.nextInt(4) == 0) {
                                continue;
                            }
                            for (int spin = random.nextInt(2_000); spin > 0; spin--) {
                                Thread.onSpinWait();
                            }
                            if (store.complete(key, owner.ownerToken(), owner.ownerToken(), ttl)) {
                                completedBy.computeIfAbsent(key, (x) -> new AtomicInteger()).incrementAndGet();
                                winner.put(key, owner.ownerToken());
                            }
                            else {
                                staleCompletesRefused.increment();
                            }
                        }
                        else {
                            assertThat(claim).isInstanceOf(ClaimResult.InProgress.class);
                            Thread.onSpinWait();
                        }
                    }
                }
                return null;
            }));
        }
        Future<?> advancer = this.executor.submit(() -> {
            start.await();
            while (working.get()) {
                clock.advance(Duration.ofMillis(250));
                advances.incrementAndGet();
                Thread.yield();
            }
            return null;
        });
        start.countDown();
        for (Future<?> worker : workers) {
            worker.get(30, TimeUnit.SECONDS);
        }
        working.set(false);
        advancer.get(30, TimeUnit.SECONDS);

        assertThat(clock.elapsed()).isLessThan(ttl);
        assertThat(completedBy).hasSize(keys);
        assertThat(completedBy.values()).allSatisfy((times) -> assertThat(times).hasValue(1));
        assertThat(replayed).hasSize(keys);
        replayed.forEach((key, value) -> assertThat(value).as(key).isEqualTo(winner.get(key)));
        assertThat(acquired.sum()).isGreaterThanOrEqualTo(keys);
        System.out.printf("lease race: %d keys, %d claims acquired, %d stale completes refused, %s virtual time%n",
                keys, acquired.sum(), staleCompletesRefused.sum(), clock.elapsed());
    }

    @Test
    void fullDeadLetterStoreUnderEightWritersStaysAtCapacityAndKeepsTheNewest() throws Exception {
        int capacity = 100;
        int perWriter = 10_000;
        InMemoryDeadLetterStore store = new InMemoryDeadLetterStore(capacity);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger largestSeen = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);

        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int writer = t;
            writers.add(this.executor.submit(() -> {
                start.await();
                for (int i = 0; i < perWriter; i++) {
                    store.write(letter("w" + writer + "-" + i));
                }
                return null;
            }));
        }
        Future<?> watcher = this.executor.submit(() -> {
            start.await();
            while (writing.get()) {
                largestSeen.accumulateAndGet(store.size(), Math::max);
                largestSeen.accumulateAndGet(store.list(capacity + 10).size(), Math::max);
            }
            return null;
        });
        start.countDown();
        for (Future<?> writer : writers) {
            writer.get(30, TimeUnit.SECONDS);
        }
        writing.set(false);
        watcher.get(30, TimeUnit.SECONDS);

        assertThat(largestSeen.get()).isLessThanOrEqualTo(capacity);
        assertThat(store.size()).isEqualTo(capacity);
        Map<String, List<Integer>> keptByWriter = new HashMap<>();
        for (DeadLetter letter : store.list(capacity)) {
            String[] parts = letter.id().split("-");
            keptByWriter.computeIfAbsent(parts[0], (w) -> new ArrayList<>()).add(Integer.parseInt(parts[1]));
        }
        keptByWriter.forEach((writer, kept) -> {
            List<Integer> newestOfWriter = new ArrayList<>();
            for (int i = perWriter - 1; i >= perWriter - kept.size(); i--) {
                newestOfWriter.add(i);
            }
            assertThat(kept).as("letters kept of %s, newest first", writer).isEqualTo(newestOfWriter);
        });
        store.write(letter("last"));
        assertThat(store.list(1)).extracting(DeadLetter::id).containsExactly("last");
        assertThat(store.size()).isEqualTo(capacity);
    }

    private static long count(Map<ExecutionStatus, LongAdder> byStatus, ExecutionStatus status) {
        LongAdder adder = byStatus.get(status);
        return (adder != null) ? adder.sum() : 0;
    }

    private static DeadLetter letter(String id) {
        return new DeadLetter(id, "payment", "PaymentService#pay", List.of(), "java.io.IOException", "down", 3,
                Instant.EPOCH, Instant.EPOCH, ExecutionStatus.ERROR);
    }

}
