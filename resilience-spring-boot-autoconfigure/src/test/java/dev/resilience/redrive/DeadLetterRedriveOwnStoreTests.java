package dev.resilience.redrive;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.DeadLetterRedriveAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
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
 * A re-drive with an application's own store that has no claims of its own: the letter is
 * claimed by deleting it, and the response says when it could not be written back.
 */
class DeadLetterRedriveOwnStoreTests {

    private final RefusingStore store = new RefusingStore();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, DeadLetterRedriveAutoConfiguration.class))
        .withPropertyValues("resilience.retry.defaults.jitter=none", "resilience.retry.instances.ship.max-attempts=2")
        .withBean(TimeSource.class, VirtualTimeSource::new)
        .withBean(DeadLetterStore.class, () -> this.store)
        .withBean(Shipping.class);

    @Test
    void failedRedriveWhoseLetterTheStoreRefusedToWriteBackSaysItIsUnknown() {
        this.contextRunner.run((context) -> {
            Shipping shipping = context.getBean(Shipping.class);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> shipping.ship("parcel-1"));
            DeadLetter letter = this.store.list(10).get(0);
            this.store.refuseWrites.set(true);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.outcome()).isEqualTo(Outcome.FAILURE);
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.UNKNOWN);
            assertThat(this.store.find(letter.id())).isEmpty();
        });
    }

    @Test
    void failedRedriveWritesTheLetterBackUnchanged() {
        this.contextRunner.run((context) -> {
            Shipping shipping = context.getBean(Shipping.class);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> shipping.ship("parcel-2"));
            DeadLetter letter = this.store.list(10).get(0);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(this.store.list(10)).containsExactly(letter);
        });
    }

    public static class Shipping {

        @Retryable("ship")
        public String ship(String parcel) throws IOException {
            throw new IOException("carrier down");
        }

    }

    /**
     * A store of the application's own, without claims, whose writes can be refused.
     */
    static final class RefusingStore implements DeadLetterStore {

        final AtomicBoolean refuseWrites = new AtomicBoolean();

        private final InMemoryDeadLetterStore letters = new InMemoryDeadLetterStore();

        @Override
        public void write(DeadLetter deadLetter) {
            if (this.refuseWrites.get()) {
                throw new IllegalStateException("store refused the write");
            }
            this.letters.write(deadLetter);
        }

        @Override
        public List<DeadLetter> list(int limit) {
            return this.letters.list(limit);
        }

        @Override
        public Optional<DeadLetter> find(String id) {
            return this.letters.find(id);
        }

        @Override
        public boolean delete(String id) {
            return this.letters.delete(id);
        }

        @Override
        public int size() {
            return this.letters.size();
        }

    }

}
