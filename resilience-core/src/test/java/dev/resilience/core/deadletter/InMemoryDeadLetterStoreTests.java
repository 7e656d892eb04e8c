package dev.resilience.core.deadletter;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class InMemoryDeadLetterStoreTests {

    private static final Instant FIRST_ATTEMPT = Instant.parse("2026-01-01T00:00:00Z");

    private final InMemoryDeadLetterStore store = new InMemoryDeadLetterStore();

    @Test
    void clearRemovesEveryLetterAndAClaimTakenBeforeItCompletesOnNothing() {
        this.store.write(deadLetter("a"));
        this.store.write(deadLetter("b"));
        DeadLetterClaim claim = this.store.claim("a", Duration.ofMinutes(1)).orElseThrow();

        this.store.clear();

        assertThat(this.store.size()).isZero();
        assertThat(this.store.list(10)).isEmpty();
        assertThat(claim.complete()).isFalse();
        this.store.write(deadLetter("a"));
        assertThat(this.store.claim("a", Duration.ofMinutes(1))).isPresent();
    }

    @Test
    void listReturnsNewestFirstUpToTheLimit() {
        this.store.write(deadLetter("a"));
        this.store.write(deadLetter("b"));
        this.store.write(deadLetter("c"));

        assertThat(ids(this.store.list(10))).containsExactly("c", "b", "a");
        assertThat(ids(this.store.list(2))).containsExactly("c", "b");
        assertThat(this.store.list(0)).isEmpty();
        assertThatIllegalArgumentException().isThrownBy(() -> this.store.list(-1));
    }

    @Test
    void rewritingAnIdReplacesItAndMakesItNewest() {
        this.store.write(deadLetter("a"));
        this.store.write(deadLetter("b"));
        DeadLetter rewritten = new DeadLetter("a", "payment", "PaymentService#pay", List.of(), "java.io.IOException",
                null, 5, FIRST_ATTEMPT, FIRST_ATTEMPT.plusSeconds(9), ExecutionStatus.TIMEOUT);

        this.store.write(rewritten);

        assertThat(this.store.size()).isEqualTo(2);
        assertThat(this.store.list(10)).containsExactly(rewritten, deadLetter("b"));
    }

    @Test
    void findReturnsTheDeadLetterWrittenUnderAnId() {
        DeadLetter written = deadLetter("a");
        this.store.write(written);

        assertThat(this.store.find("a")).contains(written);
        assertThat(this.store.find("unknown")).isEmpty();
    }

    @Test
    void deleteRemovesOnlyThatDeadLetter() {
        this.store.write(deadLetter("a"));
        this.store.write(deadLetter("b"));

        assertThat(this.store.delete("a")).isTrue();
        assertThat(this.store.delete("a")).isFalse();
        assertThat(this.store.find("a")).isEmpty();
        assertThat(ids(this.store.list(10))).containsExactly("b");
        assertThat(this.store.size()).isEqualTo(1);
    }

    @Test
    void writesBeyondCapacityEvictTheOldest() {
        InMemoryDeadLetterStore small = new InMemoryDeadLetterStore(3);

        for (int i = 0; i < 10; i++) {
            small.write(deadLetter("dl-" + i));
        }

        assertThat(small.size()).isEqualTo(3);
        assertThat(ids(small.list(10))).containsExactly("dl-9", "dl-8", "dl-7");
        assertThat(small.find("dl-6")).isEmpty();
    }

    @Test
    void deadLettersOlderThanTheTtlAreGoneFromListFindAndSize() {
        VirtualTimeSource clock = new VirtualTimeSource();
        InMemoryDeadLetterStore expiring = new InMemoryDeadLetterStore(10, Duration.ofHours(1), clock);
        expiring.write(deadLetter("old"));
        clock.advance(Duration.ofMinutes(30));
        expiring.write(deadLetter("young"));

        clock.advance(Duration.ofMinutes(30));

        assertThat(ids(expiring.list(10))).containsExactly("young");
        assertThat(expiring.find("old")).isEmpty();
        assertThat(expiring.find("young")).isPresent();
        assertThat(expiring.size()).isEqualTo(1);
        assertThat(expiring.delete("old")).isFalse();
        clock.advance(Duration.ofMinutes(30));
        assertThat(expiring.list(10)).isEmpty();
        assertThat(expiring.size()).isZero();
    }

    @Test
    void rewritingAnIdRestartsItsTtl() {
        VirtualTimeSource clock = new VirtualTimeSource();
        InMemoryDeadLetterStore expiring = new InMemoryDeadLetterStore(10, Duration.ofHours(1), clock);
        expiring.write(deadLetter("a"));
        clock.advance(Duration.ofMinutes(50));
        expiring.write(deadLetter("a"));

        clock.advance(Duration.ofMinutes(50));

        assertThat(ids(expiring.list(10))).containsExactly("a");
    }

    @Test
    void ttlThatIsNotPositiveIsRefused() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new InMemoryDeadLetterStore(10, Duration.ZERO, new VirtualTimeSource()));
    }

    @Test
    void capacityBelowOneIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryDeadLetterStore(0));
    }

    @Test
    void concurrentWritesNeverExceedCapacityAndLoseNothingBelowIt() throws Exception {
        int threads = 8;
        int writesPerThread = 1_000;
        InMemoryDeadLetterStore large = new InMemoryDeadLetterStore(threads * writesPerThread);
        InMemoryDeadLetterStore small = new InMemoryDeadLetterStore(500);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            workers.add(executor.submit(() -> {
                start.await();
                int largestSmallSize = 0;
                for (int i = 0; i < writesPerThread; i++) {
                    DeadLetter deadLetter = deadLetter(thread + "-" + i);
                    large.write(deadLetter);
                    small.write(deadLetter);
                    largestSmallSize = Math.max(largestSmallSize, small.size());
                }
                return largestSmallSize;
            }));
        }

        start.countDown();

        try {
            for (Future<Integer> worker : workers) {
                assertThat(worker.get(30, TimeUnit.SECONDS)).isLessThanOrEqualTo(500);
            }
        }
        finally {
            executor.shutdownNow();
            assertThat(executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        Set<String> expected = new HashSet<>();
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < writesPerThread; i++) {
                expected.add(t + "-" + i);
            }
        }
        assertThat(large.size()).isEqualTo(threads * writesPerThread);
        assertThat(ids(large.list(Integer.MAX_VALUE))).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(small.size()).isEqualTo(500);
        assertThat(ids(small.list(Integer.MAX_VALUE))).doesNotHaveDuplicates().isSubsetOf(expected);
    }

    private static DeadLetter deadLetter(String id) {
        return new DeadLetter(id, "payment", "PaymentService#pay", List.of("{\"orderId\":1}"),
                "java.net.SocketTimeoutException", "Read timed out", 4, FIRST_ATTEMPT, FIRST_ATTEMPT.plusSeconds(3),
                ExecutionStatus.ERROR);
    }

    private static List<String> ids(List<DeadLetter> deadLetters) {
        return deadLetters.stream().map(DeadLetter::id).toList();
    }

}
