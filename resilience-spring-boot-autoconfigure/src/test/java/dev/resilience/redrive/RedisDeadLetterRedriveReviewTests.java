package dev.resilience.redrive;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.DeadLetterRedriveAutoConfiguration;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.redis.RedisServer;
import dev.resilience.registry.ArgumentRenderer;
import dev.resilience.registry.JsonArgumentRenderer;
import dev.resilience.redrive.RedriveResult.DeadLetterState;
import dev.resilience.redrive.RedriveResult.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.dao.QueryTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Review findings on re-drives with the Redis dead-letter store's claims.
 */
class RedisDeadLetterRedriveReviewTests {

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
                "resilience.dead-letter.capacity=2", "resilience.retry.defaults.jitter=none",
                "resilience.retry.instances.refunds.max-attempts=1")
        .withBean(Refunds.class, () -> this.target);

    /**
     * As with the memory store: the claimed letter stays in the full store, so the
     * re-driven call's new letter evicts the oldest one, here the claimed letter itself,
     * and is then deleted as a duplicate. The response says KEPT; Redis has lost it.
     */
    @Test
    void failedRedriveOfTheOldestLetterInAFullRedisStoreKeepsIt() {
        this.contextRunner.run((context) -> {
            Refunds refunds = context.getBean(Refunds.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> refunds.refund("r-1"));
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> refunds.refund("r-2"));
            List<DeadLetter> before = store.list(10);
            assertThat(before).hasSize(2);
            DeadLetter oldest = before.stream()
                .filter((letter) -> letter.arguments().toString().contains("r-1"))
                .findFirst()
                .orElseThrow();

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(oldest.id());

            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(store.list(10)).as("both undone calls keep their letters")
                .containsExactlyInAnyOrderElementsOf(before);
        });
    }

    /**
     * Section 11: an interrupted call ends at once and the thread's interrupt flag is set
     * again when the call returns, so the re-drive thread still has it set when it ends
     * the claim. Every Redis command of the store refuses to wait on an interrupted
     * thread: it cancels the command and throws, and the claim's release gives up with a
     * WARN. Whether Redis still ends the claim is then a race with the cancellation; it
     * loses whenever the command had not completed by then, here deterministically: Redis
     * is slow to answer (paused while the call ends) and no longer has the release script
     * cached (as after a restart or failover), so the script is never sent. The re-drive
     * is over and answered KEPT, yet every other re-drive of the letter gets IN_PROGRESS
     * until the lease (10 minutes by default) runs out.
     */
    @Test
    void redriveInterruptedDuringItsCallEndsItsClaim() {
        this.contextRunner.run((context) -> {
            Refunds refunds = context.getBean(Refunds.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> refunds.refund("r-1"));
            DeadLetter letter = store.list(10).get(0);
            redis.command("SCRIPT FLUSH");
            this.target.interrupted = true;
            RedriveResult result;
            boolean interrupted;
            try {
                result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());
                interrupted = Thread.interrupted();
                // Redis stays paused past the client's command timeout (500ms): the
                // client gives up on every release sent meanwhile, and what it sent by
                // digest alone would not be sent again as text after NOSCRIPT
                Thread.sleep(1000);
            }
            finally {
                redis.resume();
            }

            assertThat(interrupted).isTrue();
            assertThat(result.outcome()).isEqualTo(Outcome.FAILURE);
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(store.claim(letter.id(), Duration.ofMinutes(1))).as("the letter can be re-driven again")
                .isPresent();
        });
    }

    /**
     * A Redis that stops answering for a moment while a re-drive claims its letter: the
     * re-drive gives up after the store timeout and throws (500 over HTTP; the call did
     * not run), but the claim command was sent and Redis carries it out when it answers
     * again. Nobody holds that claim's token, so nothing ends it: for the whole lease (10
     * minutes by default) every re-drive of the letter answers IN_PROGRESS, "another
     * re-drive holds it", although none runs. A claim that fails is not released by its
     * token.
     */
    @Test
    void claimThatTimedOutDoesNotHoldTheLetterOnceRedisAnswersAgain() {
        AtomicBoolean pauseOnRead = new AtomicBoolean();
        JsonArgumentRenderer json = new JsonArgumentRenderer(JsonMapper.builder().build());
        // Redis stops answering right after the re-drive found the letter, as it reads
        // the arguments back, before it claims it
        ArgumentRenderer pausing = (argument) -> {
            if (pauseOnRead.getAndSet(false)) {
                redis.pause();
            }
            return json.render(argument);
        };
        this.contextRunner.withPropertyValues("resilience.dead-letter.store-timeout=250ms")
            .withBean(ArgumentRenderer.class, () -> pausing)
            .run((context) -> {
                Refunds refunds = context.getBean(Refunds.class);
                DeadLetterStore store = context.getBean(DeadLetterStore.class);
                DeadLetterRedrive redrive = context.getBean(DeadLetterRedrive.class);
                assertThatExceptionOfType(IOException.class).isThrownBy(() -> refunds.refund("r-1"));
                assertThatExceptionOfType(IOException.class).isThrownBy(() -> refunds.refund("r-2"));
                DeadLetter letter = store.list(10)
                    .stream()
                    .filter((candidate) -> candidate.arguments().toString().contains("r-1"))
                    .findFirst()
                    .orElseThrow();
                DeadLetter other = store.list(10)
                    .stream()
                    .filter((candidate) -> candidate.arguments().toString().contains("r-2"))
                    .findFirst()
                    .orElseThrow();
                // an earlier re-drive's claim: Redis knows the scripts
                store.claim(other.id(), Duration.ofMinutes(1)).orElseThrow().release();

                pauseOnRead.set(true);
                Throwable timedOut;
                try {
                    timedOut = catchThrowable(() -> redrive.redrive(letter.id()));
                }
                finally {
                    redis.resume();
                }
                assertThat(timedOut).as("the claim timed out").isInstanceOf(QueryTimeoutException.class);
                RedriveResult again = redrive.redrive(letter.id());

                assertThat(again.outcome()).as("no re-drive holds the letter").isNotEqualTo(Outcome.IN_PROGRESS);
            });
    }

    public static class Refunds {

        volatile boolean interrupted;

        @Retryable("refunds")
        public String refund(String id) throws IOException, InterruptedException {
            if (this.interrupted) {
                // Redis is slow to answer from now on
                redis.pause();
                throw new InterruptedException("shutting down");
            }
            throw new IOException("payments down");
        }

    }

}
