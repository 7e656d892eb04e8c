package dev.resilience.redrive;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.DeadLetterRedriveAutoConfiguration;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.redis.RedisServer;
import dev.resilience.redrive.RedriveResult.DeadLetterState;
import dev.resilience.redrive.RedriveResult.Outcome;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * How re-drives claim dead letters in Redis: what the response says when Redis fails, and
 * what another instance sees while a re-drive runs or after its instance died.
 */
class RedisDeadLetterRedriveClaimTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final Refunds target = new Refunds();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                DataRedisAutoConfiguration.class, DeadLetterRedriveAutoConfiguration.class))
        .withPropertyValues(redis.springProperties().toArray(String[]::new))
        .withPropertyValues(FingerprintSecret.PROPERTY)
        .withPropertyValues("spring.application.name=shop", "resilience.dead-letter.store=redis",
                "resilience.retry.defaults.jitter=none", "resilience.retry.instances.refunds.max-attempts=2")
        .withBean(TimeSource.class, VirtualTimeSource::new);

    @Test
    void letterThatCouldNotBeWrittenBackIsNotReportedAsKept() {
        this.contextRunner.withBean(Refunds.class, () -> this.target).run((context) -> {
            Refunds refunds = context.getBean(Refunds.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            this.target.down.set(true);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> refunds.refund("r-1", 900));
            DeadLetter letter = store.list(10).get(0);
            this.target.fillRedisOnNextCall.set(true);
            RedriveResult result;
            try {
                result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());
            }
            finally {
                redis.command("CONFIG SET maxmemory 0");
            }

            boolean stored = store.find(letter.id()).isPresent();
            assertThat(result.deadLetter()).as("the response says KEPT; the letter is in the store: %s", stored)
                .isEqualTo(stored ? DeadLetterState.KEPT : DeadLetterState.NONE);
        });
    }

    @Test
    void letterBeingRedrivenByAnotherInstanceIsInProgressNotUnknown() {
        Refunds other = new Refunds();
        this.contextRunner.withBean(Refunds.class, () -> this.target).run((first) -> {
            Refunds refunds = first.getBean(Refunds.class);
            DeadLetterStore store = first.getBean(DeadLetterStore.class);
            this.target.down.set(true);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> refunds.refund("r-2", 300));
            DeadLetter letter = store.list(10).get(0);
            CountDownLatch gate = new CountDownLatch(1);
            this.target.gate = gate;
            ExecutorService threads = Executors.newSingleThreadExecutor();
            try {
                Future<RedriveResult> running = threads
                    .submit(() -> first.getBean(DeadLetterRedrive.class).redrive(letter.id()));
                assertThat(this.target.entered.await(10, TimeUnit.SECONDS)).isTrue();
                this.contextRunner.withBean(Refunds.class, () -> other).run((second) -> {
                    RedriveResult result = second.getBean(DeadLetterRedrive.class).redrive(letter.id());
                    gate.countDown();
                    assertThat(running.get(10, TimeUnit.SECONDS).deadLetter()).isEqualTo(DeadLetterState.KEPT);
                    assertThat(store.find(letter.id())).as("the letter is there again").isPresent();
                    assertThat(result.outcome()).as("told %s of a letter another instance holds", result.outcome())
                        .isEqualTo(Outcome.IN_PROGRESS);
                });
            }
            finally {
                gate.countDown();
                threads.shutdownNow();
            }
        });
    }

    @Test
    void letterOfAnInstanceThatDiedMidRedriveIsRedrivenOnceItsClaimRunsOut() {
        this.contextRunner.withBean(Refunds.class, () -> this.target).run((context) -> {
            Refunds refunds = context.getBean(Refunds.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            this.target.down.set(true);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> refunds.refund("r-3", 100));
            DeadLetter letter = store.list(10).get(0);
            assertThat(store.claim(letter.id(), Duration.ofMillis(300))).as("the instance that then dies").isPresent();
            this.target.down.set(false);
            this.target.calls.clear();
            DeadLetterRedrive redrive = context.getBean(DeadLetterRedrive.class);

            assertThat(redrive.redrive(letter.id()).outcome()).isEqualTo(Outcome.IN_PROGRESS);
            assertThat(store.find(letter.id())).as("kept while its claim holds").contains(letter);
            await().atMost(Duration.ofSeconds(10))
                .until(() -> redrive.redrive(letter.id()).outcome() == Outcome.SUCCESS);

            assertThat(this.target.calls).containsExactly("r-3");
            assertThat(store.find(letter.id())).isEmpty();
        });
    }

    @Test
    void successWhoseLetterRedisFailedToDeleteSaysTheLettersStateIsUnknown() {
        this.contextRunner.withBean(Refunds.class, () -> this.target).run((context) -> {
            Refunds refunds = context.getBean(Refunds.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            this.target.down.set(true);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> refunds.refund("r-4", 100));
            DeadLetter letter = store.list(10).get(0);
            this.target.down.set(false);
            this.target.stopRedisOnNextCall.set(true);
            RedriveResult result;
            try {
                result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());
            }
            finally {
                redis.start();
            }

            assertThat(result.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.UNKNOWN);
            assertThat(result.error()).contains("failed to delete the dead letter");
        });
    }

    public static class Refunds {

        volatile CountDownLatch entered = new CountDownLatch(1);

        volatile @Nullable CountDownLatch gate;

        final AtomicBoolean down = new AtomicBoolean();

        final AtomicBoolean fillRedisOnNextCall = new AtomicBoolean();

        final AtomicBoolean stopRedisOnNextCall = new AtomicBoolean();

        final List<String> calls = new CopyOnWriteArrayList<>();

        @Retryable("refunds")
        public String refund(String id, long cents) throws IOException {
            this.calls.add(id);
            this.entered.countDown();
            CountDownLatch gate = this.gate;
            if (gate != null) {
                try {
                    gate.await(10, TimeUnit.SECONDS);
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
            if (this.fillRedisOnNextCall.getAndSet(false)) {
                // Redis refuses writes from now on (noeviction, full), as an outage of
                // writes after the re-drive claimed the letter
                redis.command("CONFIG SET maxmemory 1");
            }
            if (this.stopRedisOnNextCall.getAndSet(false)) {
                redis.stop();
            }
            if (this.down.get()) {
                throw new IOException("payments down");
            }
            return "refunded " + id;
        }

    }

}
