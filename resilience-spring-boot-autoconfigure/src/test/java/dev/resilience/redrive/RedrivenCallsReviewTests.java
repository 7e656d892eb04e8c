package dev.resilience.redrive;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

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
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Review findings on {@link RedrivenCalls}: which call a re-drive's announcement reaches.
 */
class RedrivenCallsReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, DeadLetterRedriveAutoConfiguration.class))
        .withPropertyValues("resilience.retry.defaults.jitter=none", "resilience.retry.instances.ship.max-attempts=1",
                "resilience.retry.instances.dispatch.max-attempts=1")
        .withBean(TimeSource.class, VirtualTimeSource::new);

    /**
     * An {@code @Async} method (allowed with {@code @Retryable} and {@code @Fallback};
     * only {@code @Idempotent} refuses it) enters its pipeline on the executor's thread:
     * Spring's async advice runs before ours. The re-drive announces the re-run on its
     * own thread only, so the customizer never recognizes it: the re-run has neither the
     * capture's listener nor its record. When a fallback answers the re-run, the re-drive
     * never hears of it, takes the fallback's value for the method's success, answers
     * SUCCESS and deletes the letter: the parcel was never dispatched and its letter is
     * gone.
     */
    @Test
    void redriveOfAnAsyncMethodThatAFallbackAnsweredKeepsTheLetter() {
        Dispatcher target = new Dispatcher();
        this.contextRunner.withUserConfiguration(AsyncConfiguration.class)
            .withBean(Dispatcher.class, () -> target)
            .run((context) -> {
                Dispatcher dispatcher = context.getBean(Dispatcher.class);
                DeadLetterStore store = context.getBean(DeadLetterStore.class);
                assertThat(dispatcher.dispatch("parcel-1").handle((value, failure) -> failure).join()).isNotNull();
                assertThat(store.list(10)).hasSize(1);
                DeadLetter letter = store.list(10).get(0);
                target.fallbackAnswers = true;

                RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

                assertThat(target.dispatched).as("the method never did the work").isZero();
                assertThat(result.outcome()).isEqualTo(Outcome.FAILURE);
                assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
                assertThat(store.find(letter.id())).contains(letter);
            });
    }

    /**
     * The same {@code @Async} method failing again: its re-run, unrecognized on the
     * executor's thread, writes its own letter to the store beside the one re-driven, so
     * one undone call has two letters (and, in a full store, evicts another call's
     * letter), which the re-run's record was meant to prevent.
     */
    @Test
    void failedRedriveOfAnAsyncMethodAddsNoSecondLetter() {
        Dispatcher target = new Dispatcher();
        this.contextRunner.withUserConfiguration(AsyncConfiguration.class)
            .withBean(Dispatcher.class, () -> target)
            .run((context) -> {
                Dispatcher dispatcher = context.getBean(Dispatcher.class);
                DeadLetterStore store = context.getBean(DeadLetterStore.class);
                assertThat(dispatcher.dispatch("parcel-1").handle((value, failure) -> failure).join()).isNotNull();
                DeadLetter letter = store.list(10).get(0);

                RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

                assertThat(result.outcome()).isEqualTo(Outcome.FAILURE);
                assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
                assertThat(store.list(10)).as("one undone call, one letter").containsExactly(letter);
            });
    }

    /**
     * A re-run that fails again writes its letter into its own record, not the store, yet
     * the pipeline still tells every listener {@code onDeadLetter}: the statistics behind
     * {@code resilience.deadletters} count a letter that was never written. Each failed
     * re-drive of one undone call adds one to the meter, so the meter says three letters
     * were written while the store holds one.
     */
    @Test
    void failedRedriveCountsNoDeadLetter() {
        this.contextRunner.withBean(Shipping.class).run((context) -> {
            Shipping shipping = context.getBean(Shipping.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> shipping.ship("parcel-1"));
            DeadLetter letter = store.list(10).get(0);
            DeadLetterRedrive redrive = context.getBean(DeadLetterRedrive.class);

            assertThat(redrive.redrive(letter.id()).deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(redrive.redrive(letter.id()).deadLetter()).isEqualTo(DeadLetterState.KEPT);

            assertThat(store.size()).isOne();
            assertThat(context.getBean(ResilienceRegistry.class).statistics("ship").deadLetters())
                .as("dead letters written")
                .isOne();
        });
    }

    @Test
    void asyncMethodWhoseArgumentsAreAllPlainValuesIsRefusedAndKeepsItsLetter() {
        this.contextRunner.withUserConfiguration(AsyncConfiguration.class).withBean(Counters.class).run((context) -> {
            Counters counters = context.getBean(Counters.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThat(counters.reset(7L).handle((value, failure) -> failure).join()).isNotNull();
            DeadLetter letter = store.list(10).get(0);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.outcome()).isEqualTo(Outcome.UNREADABLE);
            assertThat(result.error()).contains("@Async method whose arguments are all numbers");
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(store.list(10)).containsExactly(letter);
        });
    }

    public static class Counters {

        @Async
        @Retryable("dispatch")
        public CompletableFuture<String> reset(Long counter) throws IOException {
            throw new IOException("counter store down");
        }

    }

    @Configuration(proxyBeanMethods = false)
    @EnableAsync
    static class AsyncConfiguration {

    }

    public static class Dispatcher {

        volatile boolean fallbackAnswers;

        volatile int dispatched;

        @Async
        @Retryable("dispatch")
        @Fallback("later")
        public CompletableFuture<String> dispatch(String parcel) throws IOException {
            throw new IOException("warehouse down");
        }

        CompletableFuture<String> later(String parcel) {
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
