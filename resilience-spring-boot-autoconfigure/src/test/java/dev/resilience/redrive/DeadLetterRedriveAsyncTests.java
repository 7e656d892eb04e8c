package dev.resilience.redrive;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.DeadLetterRedriveAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.redrive.RedriveResult.DeadLetterState;
import dev.resilience.redrive.RedriveResult.Outcome;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A re-drive of an asynchronous method waits for it at most the re-drive lease.
 */
class DeadLetterRedriveAsyncTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, DeadLetterRedriveAutoConfiguration.class))
        .withPropertyValues("resilience.retry.instances.notify.max-attempts=1",
                "resilience.dead-letter.redrive-lease=300ms")
        .withBean(Notifier.class);

    @Test
    void asynchronousCallThatNeverCompletesIsCancelledAtTheLeaseAndKeepsItsLetter() {
        this.contextRunner.run((context) -> {
            Notifier notifier = context.getBean(Notifier.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            notifier.notify("customer-7").exceptionally((ex) -> null).join();
            DeadLetter letter = store.list(10).get(0);
            notifier.hang();

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.outcome()).isEqualTo(Outcome.FAILURE);
            assertThat(result.errorClass()).isEqualTo("java.util.concurrent.TimeoutException");
            assertThat(result.error()).contains("did not complete within the re-drive lease (300ms");
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(store.find(letter.id())).contains(letter);
            await().atMost(Duration.ofSeconds(10)).until(() -> notifier.hanging().isCancelled());
            assertThat(store.claim(letter.id(), Duration.ofMinutes(1))).as("its claim was ended").isPresent();
        });
    }

    public static class Notifier {

        private final AtomicBoolean hang = new AtomicBoolean();

        private final CompletableFuture<String> hanging = new CompletableFuture<>();

        public void hang() {
            this.hang.set(true);
        }

        public CompletableFuture<String> hanging() {
            return this.hanging;
        }

        @Retryable("notify")
        public CompletableFuture<String> notify(String customer) {
            if (this.hang.get()) {
                return this.hanging;
            }
            return CompletableFuture.failedFuture(new IOException("mail server down"));
        }

    }

}
