package dev.resilience.core.ratelimiter;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A {@link RateLimiter} made with {@link SharedPermits}: the store's answers decide each
 * permit, the limiter waits, gives back and counts as it does in memory, and its own
 * in-memory state, with the same settings, judges the calls the store cannot answer.
 */
class RateLimiterSharedPermitsTests {

    private static final long INTERVAL = Duration.ofMillis(200).toNanos();

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final ScriptedPermits store = new ScriptedPermits();

    private RateLimiter limiter(Duration timeout) {
        return RateLimiter.of("quotes",
                RateLimiterConfig.builder().limit(5).period(Duration.ofSeconds(1)).timeout(timeout).build(), this.clock,
                this.store);
    }

    @Test
    void theStoreDecidesEveryPermitAndTheLimiterCountsThem() throws InterruptedException {
        RateLimiter limiter = limiter(Duration.ZERO);
        this.store.answer(0, 0, -Duration.ofMillis(70).toNanos());

        limiter.acquirePermission();
        assertThat(limiter.tryAcquire()).isZero();
        assertThatExceptionOfType(RateLimitedException.class).isThrownBy(limiter::acquirePermissionWithoutWaiting)
            .satisfies((ex) -> assertThat(ex.retryAfter()).isEqualTo(Duration.ofMillis(70)));

        assertThat(this.store.takes).containsExactly(new Take(0, 0), new Take(0, 0), new Take(0, 0));
        assertThat(limiter.sharedPermits()).isSameAs(this.store);
        assertThat(limiter.permittedCalls()).isEqualTo(2);
        assertThat(limiter.rejectedCalls()).isOne();
    }

    @Test
    void aSynchronousCallerSleepsExactlyTheWaitTheStoreReservedWithinTheTimeout() throws InterruptedException {
        RateLimiter limiter = limiter(Duration.ofMillis(500));
        this.store.answer(Duration.ofMillis(130).toNanos());

        limiter.acquirePermission();

        assertThat(this.store.takes).containsExactly(new Take(0, Duration.ofMillis(500).toNanos()));
        assertThat(this.clock.sleeps()).containsExactly(Duration.ofMillis(130));
        assertThat(limiter.permittedCalls()).isOne();
    }

    @Test
    void anAsynchronousCallerIsCompletedByTheTimerExactlyWhenTheStoresWaitHasPassed() {
        RateLimiter limiter = limiter(Duration.ofMillis(500));
        this.store.answer(Duration.ofMillis(130).toNanos());

        CompletableFuture<Void> permit = limiter.acquireAsync();

        this.clock.advance(Duration.ofMillis(130).minusNanos(1));
        assertThat(permit).isNotDone();
        this.clock.advance(Duration.ofNanos(1));
        assertThat(permit).isCompleted();
        assertThat(limiter.permittedCalls()).isOne();
        assertThat(this.store.givenBack).isEmpty();
    }

    @Test
    void aRefusalOfTheStoreFailsTheAsynchronousCallAtOnceWithItsWait() {
        RateLimiter limiter = limiter(Duration.ofMillis(500));
        this.store.answer(-Duration.ofMillis(900).toNanos());

        CompletableFuture<Void> permit = limiter.acquireAsync();

        assertThat(permit).failsWithin(Duration.ZERO)
            .withThrowableOfType(ExecutionException.class)
            .havingCause()
            .isInstanceOfSatisfying(RateLimitedException.class,
                    (ex) -> assertThat(ex.retryAfter()).isEqualTo(Duration.ofMillis(900)));
        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(limiter.rejectedCalls()).isOne();
    }

    @Test
    void anInterruptedWaitGivesTheStoresReservationBackToTheStore() {
        RateLimiter limiter = limiter(Duration.ofSeconds(1));
        this.clock.advance(Duration.ofMillis(3));
        this.store.answer(Duration.ofMillis(130).toNanos());

        Thread.currentThread().interrupt();
        assertThatExceptionOfType(InterruptedException.class).isThrownBy(limiter::acquirePermission);

        assertThat(this.store.givenBack)
            .containsExactly(new Take(Duration.ofMillis(3).toNanos(), Duration.ofMillis(130).toNanos()));
        assertThat(limiter.rejectedCalls()).isOne();
        assertThat(limiter.permittedCalls()).isZero();
    }

    @Test
    void aCancelledAsynchronousWaitGivesTheStoresReservationBackAndCancelsItsTimer() {
        RateLimiter limiter = limiter(Duration.ofSeconds(1));
        this.store.answer(Duration.ofMillis(130).toNanos());
        CompletableFuture<Void> permit = limiter.acquireAsync();

        permit.cancel(false);

        assertThat(this.store.givenBack).containsExactly(new Take(0, Duration.ofMillis(130).toNanos()));
        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(limiter.rejectedCalls()).isOne();
    }

    @Test
    void whileTheStoreCannotAnswerTheLimitersOwnStateJudgesWithTheSameSettings() {
        RateLimiter limiter = limiter(Duration.ZERO);
        for (int i = 0; i < 6; i++) {
            this.store.answer(SharedPermits.UNAVAILABLE);
        }

        for (int i = 0; i < 5; i++) {
            assertThat(limiter.tryAcquire()).isZero();
        }

        assertThat(limiter.tryAcquire()).as("the burst of 5 is spent, one permit back every 200ms").isEqualTo(INTERVAL);
        assertThat(limiter.permittedCalls()).isEqualTo(5);
        assertThat(limiter.rejectedCalls()).isOne();
    }

    @Test
    void aReservationTheLimiterMadeItselfIsGivenBackToItsOwnState() {
        RateLimiter limiter = limiter(Duration.ofSeconds(1));
        for (int i = 0; i < 7; i++) {
            this.store.answer(SharedPermits.UNAVAILABLE);
        }
        for (int i = 0; i < 5; i++) {
            assertThat(limiter.acquireAsync()).isCompleted();
        }

        CompletableFuture<Void> reserved = limiter.acquireAsync();
        reserved.cancel(false);

        assertThat(this.store.givenBack).as("asked first, the store says it is none of its own")
            .containsExactly(new Take(0, INTERVAL));
        assertThat(limiter.tryAcquire()).as("the given-back permit is the next, 200ms away again").isEqualTo(INTERVAL);
    }

    @Test
    void theGaugeReadsTheStoresEstimateOnceItHasAnswered() {
        RateLimiter limiter = limiter(Duration.ZERO);
        this.store.answer(SharedPermits.UNAVAILABLE, SharedPermits.UNAVAILABLE);
        limiter.tryAcquire();
        limiter.tryAcquire();

        assertThat(limiter.availablePermits()).as("no estimate yet: the limiter's own").isEqualTo(3);
        this.store.available = 1;
        assertThat(limiter.availablePermits()).isOne();
    }

    @Test
    void aLimiterWithoutSharedPermitsHasNone() {
        assertThat(RateLimiter.of("local", RateLimiterConfig.ofDefaults(), this.clock).sharedPermits()).isNull();
    }

    @Test
    void sharedPermitsNeedANamedLimiter() {
        assertThatExceptionOfType(IllegalArgumentException.class)
            .isThrownBy(() -> RateLimiter.of(" ", RateLimiterConfig.ofDefaults(), this.clock, this.store));
    }

    @Test
    void aPermitJudgedInMemoryOnceTheStoreTookItsTimeToFailIsTakenAtTheTimeItIsJudged() {
        SlowlyUnavailable slow = new SlowlyUnavailable(this.clock, Duration.ofSeconds(2));
        RateLimiter limiter = RateLimiter.of("quotes",
                RateLimiterConfig.builder().limit(1).period(Duration.ofSeconds(1)).build(), this.clock, slow);

        assertThat(limiter.tryAcquire()).as("judged in memory when the store failed, 2 s later").isZero();
        assertThat(this.clock.elapsed()).isEqualTo(Duration.ofSeconds(2));
        assertThat(limiter.tryAcquire()).as("the one permit of the second after 2 s is taken")
            .isEqualTo(Duration.ofSeconds(1).toNanos());

        assertThat(limiter.permittedCalls()).isOne();
        assertThat(limiter.rejectedCalls()).isOne();
    }

    private record Take(long now, long nanos) {
    }

    /**
     * Shared permits that answer what a test scripts, and record what they are asked.
     */
    private static final class ScriptedPermits implements SharedPermits {

        private final Deque<Long> answers = new ArrayDeque<>();

        private final List<Take> takes = new ArrayList<>();

        private final List<Take> givenBack = new ArrayList<>();

        private final List<Take> reserved = new ArrayList<>();

        private volatile int available = -1;

        void answer(long... waits) {
            for (long wait : waits) {
                this.answers.add(wait);
            }
        }

        @Override
        public long take(long now, long maxWaitNanos) {
            this.takes.add(new Take(now, maxWaitNanos));
            long wait = this.answers.remove();
            if (wait > 0) {
                this.reserved.add(new Take(now, wait));
            }
            return wait;
        }

        @Override
        public boolean giveBack(long now, long waitNanos) {
            Take reservation = new Take(now, waitNanos);
            this.givenBack.add(reservation);
            return this.reserved.remove(reservation);
        }

        @Override
        public int availablePermits(long now) {
            return this.available;
        }

        @Override
        public String store() {
            return "scripted";
        }

        @Override
        public long storeErrors() {
            return 0;
        }

    }

    /**
     * Shared permits whose store fails every call, the first one only after a while, as a
     * store that times out does.
     */
    private static final class SlowlyUnavailable implements SharedPermits {

        private final VirtualTimeSource clock;

        private Duration firstAnswerAfter;

        SlowlyUnavailable(VirtualTimeSource clock, Duration firstAnswerAfter) {
            this.clock = clock;
            this.firstAnswerAfter = firstAnswerAfter;
        }

        @Override
        public long take(long now, long maxWaitNanos) {
            this.clock.advance(this.firstAnswerAfter);
            this.firstAnswerAfter = Duration.ZERO;
            return UNAVAILABLE;
        }

        @Override
        public boolean giveBack(long now, long waitNanos) {
            return false;
        }

        @Override
        public int availablePermits(long now) {
            return -1;
        }

        @Override
        public String store() {
            return "slow";
        }

        @Override
        public long storeErrors() {
            return 0;
        }

    }

}
