package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.OnInProgress;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyInProgressException;
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @Idempotent} on methods returning {@code Mono}, through the proxy and the memory
 * store, on the virtual clock with an executor that runs each step on the thread that
 * moves the clock: each subscription claims its key when it starts the call, stores the
 * emitted value, and is replayed, refused or released as a {@code CompletableFuture}'s
 * call is, with the same outcomes and meters.
 */
@SpringBootTest(classes = MonoIdempotencyTests.TestApplication.class,
        properties = { "resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false",
                "resilience.async.executor=callerRunsExecutor" })
class MonoIdempotencyTests {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private static final Duration LEASE = Duration.ofMinutes(1);

    @Autowired
    private MonoPayments payments;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private InMemoryIdempotencyStore store;

    @Autowired
    private MeterRegistry meters;

    @Autowired
    private Results results;

    @BeforeEach
    void reset() {
        this.payments.reset();
        this.results.clear();
    }

    @Test
    void laterSubscriptionWithTheSameKeyReplaysTheStoredValueWithoutCallingTheMethod() {
        double executed = outcomes("executed");
        double replayed = outcomes("replayed");
        Mono<String> first = this.payments.pay("k-replay", 10);
        assertThat(this.payments.calls()).as("nothing runs at assembly").isZero();

        StepVerifier.create(first).expectNext("receipt-1").expectComplete().verify(BOUND);
        StepVerifier.create(this.payments.pay("k-replay", 10)).expectNext("receipt-1").expectComplete().verify(BOUND);
        StepVerifier.create(first).expectNext("receipt-1").expectComplete().verify(BOUND);

        assertThat(this.payments.calls()).isEqualTo(1);
        assertThat(this.payments.subscriptions()).isEqualTo(1);
        assertThat(outcomes("executed") - executed).isEqualTo(1);
        assertThat(outcomes("replayed") - replayed).isEqualTo(2);
        assertThat(this.results.all()).hasSize(3).allSatisfy((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
            assertThat(result.value()).isEqualTo("receipt-1");
        });
        assertThat(this.results.all()).extracting(ExecutionResult::replayed).containsExactly(false, true, true);
        assertThat(this.results.all()).extracting(ExecutionResult::attempts).containsExactly(1, 0, 0);
    }

    @Test
    void emptyMonoIsStoredAndReplayedAsEmpty() {
        StepVerifier.create(this.payments.refund("k-empty")).expectComplete().verify(BOUND);
        StepVerifier.create(this.payments.refund("k-empty")).expectComplete().verify(BOUND);

        assertThat(this.payments.calls()).isEqualTo(1);
        assertThat(this.results.all()).extracting(ExecutionResult::status)
            .containsExactly(ExecutionStatus.SUCCESS, ExecutionStatus.SUCCESS);
        assertThat(this.results.all()).extracting(ExecutionResult::replayed).containsExactly(false, true);
    }

    @Test
    void subscriptionWhileAnotherRunsUnderTheKeyGetsTheInProgressError() {
        double inProgress = outcomes("in_progress");
        Sinks.One<String> gateway = Sinks.one();
        this.payments.script((subscription) -> gateway.asMono());

        StepVerifier.create(this.payments.pay("k-running", 10))
            .then(() -> StepVerifier.create(this.payments.pay("k-running", 10))
                .expectError(IdempotencyInProgressException.class)
                .verify(BOUND))
            .then(() -> gateway.tryEmitValue("receipt-late"))
            .expectNext("receipt-late")
            .expectComplete()
            .verify(BOUND);
        StepVerifier.create(this.payments.pay("k-running", 10))
            .expectNext("receipt-late")
            .expectComplete()
            .verify(BOUND);

        assertThat(this.payments.subscriptions()).isEqualTo(1);
        assertThat(outcomes("in_progress") - inProgress).isEqualTo(1);
        assertThat(this.results.all()).extracting(ExecutionResult::status)
            .containsExactly(ExecutionStatus.REJECTED, ExecutionStatus.SUCCESS, ExecutionStatus.SUCCESS);
    }

    @Test
    void sameKeyWithOtherArgumentsGetsTheMismatchError() {
        double mismatches = outcomes("mismatch");
        StepVerifier.create(this.payments.pay("k-mismatch", 10)).expectNext("receipt-1").expectComplete().verify(BOUND);

        StepVerifier.create(this.payments.pay("k-mismatch", 20))
            .expectError(IdempotencyKeyMismatchException.class)
            .verify(BOUND);

        assertThat(this.payments.calls()).isEqualTo(1);
        assertThat(outcomes("mismatch") - mismatches).isEqualTo(1);
        assertThat(this.results.all().get(1).status()).isEqualTo(ExecutionStatus.FAILURE);
    }

    @Test
    void disposingTheSubscriptionWhileTheMethodRunsReleasesTheClaim() {
        this.payments.script((subscription) -> Mono.never());

        StepVerifier.create(this.payments.pay("k-disposed", 10))
            .then(() -> assertThat(held("mono-pay", "k-disposed")).as("the claim in progress").isTrue())
            .thenCancel()
            .verify(BOUND);

        assertThat(this.payments.cancellations()).as("the method's subscription").isEqualTo(1);
        assertThat(held("mono-pay", "k-disposed")).as("the released claim").isFalse();
        assertThat(this.results.all()).singleElement().satisfies((result) -> {
            assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
            assertThat(result.error()).isInstanceOf(CancellationException.class);
        });
        this.payments.script((subscription) -> Mono.just("receipt-again"));
        StepVerifier.create(this.payments.pay("k-disposed", 10))
            .expectNext("receipt-again")
            .expectComplete()
            .verify(BOUND);
        assertThat(this.payments.subscriptions()).isEqualTo(2);
    }

    @Test
    void disposingTheSubscriptionDuringABackoffReleasesTheClaimAndStopsTheRetries() {
        int pending = this.clock.pendingTasks();
        this.payments.script((subscription) -> Mono.error(new IOException("gateway down")));

        StepVerifier.create(this.payments.payWithRetries("k-backoff"))
            .then(() -> this.clock.advance(Duration.ofMillis(100)))
            .then(() -> assertThat(this.payments.subscriptions()).isEqualTo(2))
            .then(() -> assertThat(this.clock.pendingTasks()).as("the second backoff").isEqualTo(pending + 1))
            .then(() -> assertThat(held("mono-pay-retried", "k-backoff")).isTrue())
            .thenCancel()
            .verify(BOUND);
        this.clock.advance(Duration.ofSeconds(10));

        assertThat(this.payments.subscriptions()).isEqualTo(2);
        assertThat(this.clock.pendingTasks()).isEqualTo(pending);
        assertThat(held("mono-pay-retried", "k-backoff")).isFalse();
        assertThat(this.results.all()).singleElement()
            .satisfies((result) -> assertThat(result.error()).isInstanceOf(CancellationException.class));
    }

    @Test
    void failedCallReleasesTheKeySoTheNextSubscriptionRunsTheMethod() {
        this.payments.script((subscription) -> (subscription == 1) ? Mono.error(new IOException("gateway down"))
                : Mono.just("receipt-" + subscription));

        StepVerifier.create(this.payments.pay("k-failed", 10)).expectError(IOException.class).verify(BOUND);
        StepVerifier.create(this.payments.pay("k-failed", 10)).expectNext("receipt-2").expectComplete().verify(BOUND);

        assertThat(this.payments.calls()).isEqualTo(2);
    }

    @Test
    void subscriptionWaitingForTheKeyInProgressOnTheVirtualClockIsReplayedTheValue() {
        Sinks.One<String> gateway = Sinks.one();
        this.payments.script((subscription) -> gateway.asMono());
        int pending = this.clock.pendingTasks();

        StepVerifier.create(this.payments.payOrWait("k-wait"))
            .then(() -> StepVerifier.create(this.payments.payOrWait("k-wait"))
                .then(() -> assertThat(this.clock.pendingTasks()).as("the poll").isEqualTo(pending + 1))
                .then(() -> this.clock.advance(Duration.ofMillis(50)))
                .then(() -> assertThat(this.clock.pendingTasks()).as("the next poll").isEqualTo(pending + 1))
                .then(() -> gateway.tryEmitValue("receipt-awaited"))
                .then(() -> this.clock.advance(Duration.ofMillis(50)))
                .expectNext("receipt-awaited")
                .expectComplete()
                .verify(BOUND))
            .expectNext("receipt-awaited")
            .expectComplete()
            .verify(BOUND);

        assertThat(this.payments.subscriptions()).isEqualTo(1);
        assertThat(this.results.all()).extracting(ExecutionResult::replayed).containsExactly(false, true);
    }

    /**
     * Tells whether the store holds an entry for an unscoped key, by claiming it with
     * another fingerprint: a held key answers a mismatch, a free one is acquired and
     * released again.
     */
    private boolean held(String name, String key) {
        String storeKey = IdempotencyPolicy.of(name, this.store).storeKey("", key);
        ClaimResult probe = this.store.claim(storeKey, "probe", LEASE);
        if (probe instanceof ClaimResult.Acquired acquired) {
            assertThat(this.store.release(storeKey, acquired.ownerToken())).isTrue();
            return false;
        }
        assertThat(probe).isInstanceOf(ClaimResult.Mismatch.class);
        return true;
    }

    private double outcomes(String outcome) {
        return this.meters.get("resilience.idempotency.requests")
            .tags("name", "mono-pay", "outcome", outcome)
            .functionCounter()
            .count();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean
        Executor callerRunsExecutor() {
            return Runnable::run;
        }

        @Bean
        InMemoryIdempotencyStore idempotencyStore(VirtualTimeSource time) {
            return new InMemoryIdempotencyStore(time);
        }

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        Results results() {
            return new Results();
        }

        @Bean
        MonoPayments monoPayments() {
            return new MonoPayments();
        }

    }

    /**
     * Keeps the account of every call.
     */
    static class Results implements ExecutionListener {

        private final List<ExecutionResult<?>> results = new CopyOnWriteArrayList<>();

        @Override
        public void onComplete(String name, ExecutionResult<?> result) {
            this.results.add(result);
        }

        List<ExecutionResult<?>> all() {
            return this.results;
        }

        void clear() {
            this.results.clear();
        }

    }

    /**
     * Idempotent methods returning a {@code Mono} that count the method's calls, the
     * subscriptions to what it returns and their cancellations; the n-th subscription
     * does what the test scripted ({@code receipt-n} when nothing is).
     */
    static class MonoPayments {

        private final AtomicInteger calls = new AtomicInteger();

        private final AtomicInteger subscriptions = new AtomicInteger();

        private final AtomicInteger cancellations = new AtomicInteger();

        private volatile Function<Integer, Mono<String>> script = MonoPayments::receipt;

        void script(Function<Integer, Mono<String>> script) {
            this.script = script;
        }

        void reset() {
            this.calls.set(0);
            this.subscriptions.set(0);
            this.cancellations.set(0);
            this.script = MonoPayments::receipt;
        }

        int calls() {
            return this.calls.get();
        }

        int subscriptions() {
            return this.subscriptions.get();
        }

        int cancellations() {
            return this.cancellations.get();
        }

        private static Mono<String> receipt(int subscription) {
            return Mono.just("receipt-" + subscription);
        }

        private Mono<String> scripted() {
            this.calls.incrementAndGet();
            return Mono.defer(() -> this.script.apply(this.subscriptions.incrementAndGet()))
                .doOnCancel(this.cancellations::incrementAndGet);
        }

        @Idempotent(name = "mono-pay", key = "#key")
        public Mono<String> pay(String key, int amount) {
            return scripted();
        }

        @Idempotent(name = "mono-refund", key = "#key")
        public Mono<String> refund(String key) {
            this.calls.incrementAndGet();
            return Mono.empty();
        }

        @Idempotent(name = "mono-pay-waiting", key = "#key", onInProgress = OnInProgress.WAIT)
        public Mono<String> payOrWait(String key) {
            return scripted();
        }

        @Retryable(value = "mono-pay-retried", maxAttempts = 3, delay = "100ms", multiplier = 1)
        @Idempotent(name = "mono-pay-retried", key = "#key")
        public Mono<String> payWithRetries(String key) {
            return scripted();
        }

    }

}
