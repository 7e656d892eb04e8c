package dev.resilience.core.idempotency;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InMemoryIdempotencyStoreConcurrencyTests {

    private static final int THREADS = 64;

    private static final Duration LEASE = Duration.ofSeconds(30);

    private static final Duration TTL = Duration.ofHours(1);

    private final ExecutorService executor = Executors.newFixedThreadPool(THREADS);

    private final VirtualTimeSource time = new VirtualTimeSource();

    @AfterEach
    void shutDown() throws InterruptedException {
        this.executor.shutdownNow();
        assertThat(this.executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void concurrentClaimsOfOneKeyHaveExactlyOneWinnerAndAllReplayItsValue() throws Exception {
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.time);

        List<ClaimResult> claims = runAtOnce(() -> store.claim("order-1", "fp", LEASE));

        List<ClaimResult.Acquired> winners = claims.stream()
            .filter(ClaimResult.Acquired.class::isInstance)
            .map(ClaimResult.Acquired.class::cast)
            .toList();
        assertThat(winners).hasSize(1);
        assertThat(claims).filteredOn(ClaimResult.InProgress.class::isInstance).hasSize(THREADS - 1);

        assertThat(store.complete("order-1", winners.get(0).ownerToken(), "receipt-1", TTL)).isTrue();

        List<ClaimResult> replays = runAtOnce(() -> store.claim("order-1", "fp", LEASE));
        assertThat(replays).hasSize(THREADS).containsOnly(new ClaimResult.Completed("receipt-1"));
    }

    @Test
    void concurrentClaimsOfDistinctKeysKeepTheBound() throws Exception {
        int maxEntries = 100;
        int keysPerThread = 2_000;
        InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.time, maxEntries);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            workers.add(this.executor.submit(() -> {
                start.await();
                int largestSizeSeen = 0;
                for (int i = 0; i < keysPerThread; i++) {
                    String key = thread + "-" + i;
                    ClaimResult claim = store.claim(key, "fp", LEASE);
                    assertThat(claim).isInstanceOf(ClaimResult.Acquired.class);
                    String token = ((ClaimResult.Acquired) claim).ownerToken();
                    assertThat(store.complete(key, token, i, TTL)).isTrue();
                    largestSizeSeen = Math.max(largestSizeSeen, store.size());
                }
                return largestSizeSeen;
            }));
        }

        start.countDown();

        for (Future<Integer> worker : workers) {
            assertThat(worker.get(60, TimeUnit.SECONDS)).isLessThanOrEqualTo(maxEntries);
        }
        assertThat(store.size()).isEqualTo(maxEntries);
    }

    private <T> List<T> runAtOnce(Callable<T> task) throws Exception {
        CountDownLatch ready = new CountDownLatch(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            futures.add(this.executor.submit(() -> {
                ready.countDown();
                start.await();
                return task.call();
            }));
        }
        assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
        start.countDown();
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get(30, TimeUnit.SECONDS));
        }
        return results;
    }

}
