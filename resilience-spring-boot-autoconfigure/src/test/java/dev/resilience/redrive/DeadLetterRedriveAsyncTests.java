package dev.resilience.redrive;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.DeadLetterRedriveAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.redrive.RedriveResult.DeadLetterState;
import dev.resilience.redrive.RedriveResult.Outcome;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A re-drive of an asynchronous method waits for it at most the re-drive lease; that of a
 * method returning {@code Mono} subscribes to it.
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

    @Test
    void reDriveOfAMonoSubscribesToItAndDeletesTheLetterOnceTheCallSucceeds() {
        this.contextRunner.run((context) -> {
            Notifier notifier = context.getBean(Notifier.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThat(notifier.notifyReactively("customer-8").onErrorResume((ex) -> Mono.empty()).block()).isNull();
            DeadLetter letter = store.list(10).get(0);
            notifier.recover();

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.DELETED);
            assertThat(notifier.subscriptions()).isEqualTo(2);
            assertThat(store.find(letter.id())).isEmpty();
        });
    }

    @Test
    void reDriveOfAMonoThatFailsAgainKeepsTheLetter() {
        this.contextRunner.run((context) -> {
            Notifier notifier = context.getBean(Notifier.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThat(notifier.notifyReactively("customer-9").onErrorResume((ex) -> Mono.empty()).block()).isNull();
            DeadLetter letter = store.list(10).get(0);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.outcome()).isEqualTo(Outcome.FAILURE);
            assertThat(result.errorClass()).isEqualTo("java.io.IOException");
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(notifier.subscriptions()).isEqualTo(2);
            assertThat(store.find(letter.id())).contains(letter);
        });
    }

    @Test
    void reDriveOfAMonoOfAnExecutionResultThatFailsAgainFailsAndKeepsTheLetter() {
        this.contextRunner.run((context) -> {
            Notifier notifier = context.getBean(Notifier.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThat(notifier.notifyWithResult("customer-10").block().status()).isEqualTo(ExecutionStatus.ERROR);
            DeadLetter letter = store.list(10).get(0);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.outcome()).isEqualTo(Outcome.FAILURE);
            assertThat(result.status()).isEqualTo("ERROR");
            assertThat(result.errorClass()).isEqualTo("java.io.IOException");
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(notifier.subscriptions()).isEqualTo(2);
            assertThat(store.find(letter.id())).contains(letter);
        });
    }

    @Test
    void reDriveOfAMonoOfAnExecutionResultThatSucceedsDeletesTheLetter() {
        this.contextRunner.run((context) -> {
            Notifier notifier = context.getBean(Notifier.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThat(notifier.notifyWithResult("customer-11").block().status()).isEqualTo(ExecutionStatus.ERROR);
            DeadLetter letter = store.list(10).get(0);
            notifier.recover();

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.DELETED);
            assertThat(store.find(letter.id())).isEmpty();
        });
    }

    public static class Notifier {

        private final AtomicBoolean recovered = new AtomicBoolean();

        private final AtomicInteger subscriptions = new AtomicInteger();

        private final AtomicBoolean hang = new AtomicBoolean();

        private final CompletableFuture<String> hanging = new CompletableFuture<>();

        public void hang() {
            this.hang.set(true);
        }

        public CompletableFuture<String> hanging() {
            return this.hanging;
        }

        public void recover() {
            this.recovered.set(true);
        }

        public int subscriptions() {
            return this.subscriptions.get();
        }

        @Retryable("notify")
        public Mono<String> notifyReactively(String customer) {
            return Mono.defer(() -> {
                this.subscriptions.incrementAndGet();
                return this.recovered.get() ? Mono.just("sent") : Mono.error(new IOException("mail server down"));
            });
        }

        @Retryable("notify")
        public Mono<ExecutionResult<String>> notifyWithResult(String customer) {
            return Mono.defer(() -> {
                this.subscriptions.incrementAndGet();
                return this.recovered.get() ? Mono.just(ExecutionResult.success("sent"))
                        : Mono.error(new IOException("mail server down"));
            });
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
