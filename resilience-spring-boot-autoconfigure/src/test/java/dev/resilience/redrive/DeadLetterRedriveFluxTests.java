package dev.resilience.redrive;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.DeadLetterRedriveAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.redrive.RedriveResult.DeadLetterState;
import dev.resilience.redrive.RedriveResult.Outcome;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A re-drive of a method returning {@code Flux} runs its stream to the end: every element
 * is requested, the letter is deleted only once the stream completes, and an error after
 * the first element fails the re-drive and keeps the letter.
 */
class DeadLetterRedriveFluxTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, DeadLetterRedriveAutoConfiguration.class))
        .withPropertyValues("resilience.retry.instances.feed.max-attempts=1",
                "resilience.dead-letter.redrive-lease=10s")
        .withBean(Feeds.class);

    @Test
    void reDriveOfAFluxRunsTheWholeStreamAndDeletesTheLetterOnceItCompletes() {
        this.contextRunner.run((context) -> {
            Feeds feeds = context.getBean(Feeds.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThat(feeds.publish("customer-1").onErrorResume((ex) -> Flux.empty()).collectList().block()).isEmpty();
            DeadLetter letter = store.list(10).get(0);
            feeds.recover(false);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.DELETED);
            assertThat(feeds.published()).as("the elements the re-run published").isEqualTo(3);
            assertThat(feeds.completions()).isEqualTo(1);
            assertThat(store.find(letter.id())).isEmpty();
        });
    }

    @Test
    void reDriveOfAFluxThatFailsAfterItsFirstElementFailsAndKeepsTheLetter() {
        this.contextRunner.run((context) -> {
            Feeds feeds = context.getBean(Feeds.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThat(feeds.publish("customer-2").onErrorResume((ex) -> Flux.empty()).collectList().block()).isEmpty();
            DeadLetter letter = store.list(10).get(0);
            feeds.recover(true);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.outcome()).isEqualTo(Outcome.FAILURE);
            assertThat(result.errorClass()).isEqualTo("java.io.IOException");
            assertThat(result.error()).isEqualTo("feed broke after its first element");
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(feeds.published()).isEqualTo(1);
            assertThat(store.find(letter.id())).contains(letter);
        });
    }

    public static class Feeds {

        private final AtomicBoolean recovered = new AtomicBoolean();

        private final AtomicBoolean breaksAfterTheFirst = new AtomicBoolean();

        private final AtomicInteger published = new AtomicInteger();

        private final AtomicInteger completions = new AtomicInteger();

        public void recover(boolean breaksAfterTheFirst) {
            this.breaksAfterTheFirst.set(breaksAfterTheFirst);
            this.recovered.set(true);
        }

        public int published() {
            return this.published.get();
        }

        public int completions() {
            return this.completions.get();
        }

        @Retryable("feed")
        public Flux<Integer> publish(String customer) {
            return Flux.defer(() -> {
                if (!this.recovered.get()) {
                    return Flux.error(new IOException("feed down"));
                }
                Flux<Integer> elements = this.breaksAfterTheFirst.get()
                        ? Flux.just(1).concatWith(Flux.error(new IOException("feed broke after its first element")))
                        : Flux.range(1, 3);
                return elements.doOnNext((element) -> this.published.incrementAndGet())
                    .doOnComplete(this.completions::incrementAndGet);
            });
        }

    }

}
