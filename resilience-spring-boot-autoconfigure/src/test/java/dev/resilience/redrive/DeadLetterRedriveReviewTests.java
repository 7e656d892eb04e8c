package dev.resilience.redrive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.DeadLetterRedriveAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.redrive.RedriveResult.DeadLetterState;
import dev.resilience.redrive.RedriveResult.Outcome;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Review findings on {@link DeadLetterRedrive} with the stores' claims.
 */
class DeadLetterRedriveReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, DeadLetterRedriveAutoConfiguration.class))
        .withPropertyValues("resilience.retry.defaults.jitter=none", "resilience.retry.instances.ship.max-attempts=1",
                "resilience.dead-letter.capacity=2")
        .withBean(TimeSource.class, VirtualTimeSource::new)
        .withBean(Shipping.class);

    /**
     * A claim now keeps the letter in the store, so a full store stays full while the
     * call runs again: when it fails again, the letter it writes evicts the oldest
     * letter, here the very letter being re-driven (its claim goes with it), and is then
     * deleted as the re-driven call's duplicate. The re-drive answers KEPT, yet the
     * letter is gone: the undone work is lost, which the claims were meant to prevent.
     * (Before the claims, the claim deleted the letter first and made room.)
     */
    @Test
    void failedRedriveOfTheOldestLetterInAFullStoreKeepsIt() {
        this.contextRunner.run((context) -> {
            Shipping shipping = context.getBean(Shipping.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> shipping.ship("parcel-1"));
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> shipping.ship("parcel-2"));
            List<DeadLetter> before = store.list(10);
            assertThat(before).hasSize(2);
            DeadLetter oldest = before.stream()
                .filter((letter) -> letter.arguments().toString().contains("parcel-1"))
                .findFirst()
                .orElseThrow();

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(oldest.id());

            assertThat(result.outcome()).isEqualTo(Outcome.FAILURE);
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(store.find(oldest.id())).as("the letter the re-drive says it kept").contains(oldest);
            assertThat(store.list(10)).hasSize(2);
        });
    }

    /**
     * The same with another letter: re-driving the newest letter of a full store, when
     * the call fails again, evicts an unrelated letter (another undone call) to make room
     * for the re-driven call's duplicate, which is then deleted: one letter that the
     * re-drive never touched is lost.
     */
    @Test
    void failedRedriveInAFullStoreNeverEvictsAnotherCallsLetter() {
        this.contextRunner.run((context) -> {
            Shipping shipping = context.getBean(Shipping.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> shipping.ship("parcel-1"));
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> shipping.ship("parcel-2"));
            List<DeadLetter> before = store.list(10);
            DeadLetter newest = before.stream()
                .filter((letter) -> letter.arguments().toString().contains("parcel-2"))
                .findFirst()
                .orElseThrow();

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(newest.id());

            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(store.list(10)).as("both undone calls keep their letters")
                .containsExactlyInAnyOrderElementsOf(before);
        });
    }

    /**
     * A re-drive that a fallback answered keeps its letter as a FAILURE: the work was not
     * done. That holds for a synchronous method only. An asynchronous method's call ends
     * on the executor, so the re-drive never sees its result: the fallback's value looks
     * like the method's own success, the re-drive answers SUCCESS and deletes the letter,
     * and the undone work (here a parcel never shipped) is lost for good.
     */
    @Test
    void asynchronousRedriveThatAFallbackAnsweredKeepsTheLetter() {
        AsyncShipping target = new AsyncShipping();
        this.contextRunner.withPropertyValues("resilience.retry.instances.async-ship.max-attempts=1")
            .withBean(AsyncShipping.class, () -> target)
            .run((context) -> {
                AsyncShipping shipping = context.getBean(AsyncShipping.class);
                DeadLetterStore store = context.getBean(DeadLetterStore.class);
                shipping.ship("parcel-9").exceptionally((ex) -> null).join();
                DeadLetter letter = store.list(10).get(0);
                target.fallbackAnswers = true;

                RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

                assertThat(target.shipped).as("the method never did the work").isZero();
                assertThat(result.outcome()).isEqualTo(Outcome.FAILURE);
                assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
                assertThat(store.find(letter.id())).contains(letter);
            });
    }

    public static class AsyncShipping {

        volatile boolean fallbackAnswers;

        volatile int shipped;

        @Retryable("async-ship")
        @Fallback("queued")
        public CompletableFuture<String> ship(String parcel) {
            // the carrier's client answers on its own thread, a little later
            return CompletableFuture.supplyAsync(() -> {
                throw new UncheckedIOException(new IOException("carrier down"));
            }, CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS));
        }

        CompletableFuture<String> queued(String parcel) {
            if (!this.fallbackAnswers) {
                return CompletableFuture.failedFuture(new IllegalStateException("queue full"));
            }
            return CompletableFuture.completedFuture("queued " + parcel);
        }

    }

    public static class Shipping {

        @Retryable("ship")
        public String ship(String parcel) throws IOException {
            throw new IOException("carrier down");
        }

    }

}
