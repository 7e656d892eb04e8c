package dev.resilience.core.retry;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import dev.resilience.core.time.VirtualTimeSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

@SuppressWarnings("removal")
class RetryPolicyTests {

    private static final RetryEvent EVENT = new RetryEvent("payment", 1, new IOException("reset"),
            Duration.ofMillis(200));

    @Test
    void defaultsRetryEveryErrorThreeTimesWithFullJitter() {
        RetryPolicy policy = RetryPolicy.ofDefaults();
        assertThat(policy.maxAttempts()).isEqualTo(RetryPolicy.DEFAULT_MAX_ATTEMPTS).isEqualTo(3);
        assertThat(policy.backoff())
            .isEqualTo(Backoff.of(Duration.ofMillis(200), 2.0, Duration.ofSeconds(5), Jitter.FULL));
        assertThat(policy.retryOn()).isEmpty();
        assertThat(policy.abortOn()).isEmpty();
        assertThat(policy.attemptTimeout()).isNull();
        assertThat(policy.maxDuration()).isNull();
        assertThat(policy.budget()).isNull();
        assertThat(policy.listeners()).isEmpty();
        assertThat(policy.isRetryable(new IllegalStateException())).isTrue();
        assertThat(policy.isRetryable(new OutOfMemoryError())).isTrue();
        assertThat(policy.shouldRetryResult("done")).isFalse();
        assertThat(policy.shouldRetryResult(null)).isFalse();
    }

    @Test
    void retryOnRetriesOnlyTheListedTypesAndTheirSubclasses() {
        RetryPolicy policy = RetryPolicy.builder().retryOn(IOException.class, TimeoutException.class).build();
        assertThat(policy.isRetryable(new IOException())).isTrue();
        assertThat(policy.isRetryable(new FileNotFoundException())).isTrue();
        assertThat(policy.isRetryable(new TimeoutException())).isTrue();
        assertThat(policy.isRetryable(new IllegalStateException())).isFalse();
        assertThat(policy.isRetryable(new UncheckedIOException(new IOException()))).isFalse();
    }

    @Test
    void abortOnWinsOverRetryOnForSubclasses() {
        RetryPolicy policy = RetryPolicy.builder()
            .retryOn(List.of(IOException.class))
            .abortOn(List.of(FileNotFoundException.class))
            .build();
        assertThat(policy.isRetryable(new IOException())).isTrue();
        assertThat(policy.isRetryable(new FileNotFoundException())).isFalse();
    }

    @Test
    void emptyRetryOnRetriesEverythingNotAbortedOn() {
        RetryPolicy policy = RetryPolicy.builder().abortOn(IllegalArgumentException.class).build();
        assertThat(policy.isRetryable(new IllegalStateException())).isTrue();
        assertThat(policy.isRetryable(new IOException())).isTrue();
        assertThat(policy.isRetryable(new NumberFormatException())).isFalse();
    }

    @Test
    void errorPredicateMustAlsoAccept() {
        RetryPolicy policy = RetryPolicy.builder()
            .retryOn(IOException.class)
            .retryOnError((error) -> "transient".equals(error.getMessage()))
            .build();
        assertThat(policy.isRetryable(new IOException("transient"))).isTrue();
        assertThat(policy.isRetryable(new IOException("disk full"))).isFalse();
        assertThat(policy.isRetryable(new IllegalStateException("transient"))).isFalse();
    }

    @Test
    void resultPredicateDecidesWhichResultsToRetry() {
        RetryPolicy policy = RetryPolicy.builder()
            .retryOnResult((result) -> result == null || "PENDING".equals(result))
            .build();
        assertThat(policy.shouldRetryResult("PENDING")).isTrue();
        assertThat(policy.shouldRetryResult(null)).isTrue();
        assertThat(policy.shouldRetryResult("PAID")).isFalse();
    }

    @Test
    void nextDelayUsesTheBackoffWithThePolicysGenerator() {
        Backoff backoff = Backoff.of(Duration.ofMillis(100), 2.0, Duration.ofSeconds(10), Jitter.FULL);
        RetryPolicy policy = RetryPolicy.builder().backoff(backoff).random(new SplittableRandom(5)).build();
        SplittableRandom same = new SplittableRandom(5);
        for (int retry = 1; retry <= 5; retry++) {
            assertThat(policy.nextDelayNanos(retry, 0)).isEqualTo(backoff.nextDelayNanos(retry, 0, same));
        }
        RetryPolicy fixed = RetryPolicy.builder().backoff(Backoff.none()).build();
        assertThat(fixed.nextDelayNanos(3, 0)).isZero();
    }

    @Test
    void listenersAreToldInOrderAndOneThatThrowsIsIgnored() {
        List<String> told = new ArrayList<>();
        RetryPolicy policy = RetryPolicy.builder()
            .listener((event) -> told.add("first " + event.attempt()))
            .listener((event) -> {
                throw new IllegalStateException("broken listener");
            })
            .listener((event) -> told.add("third " + event.name()))
            .build();
        policy.notifyRetry(EVENT);
        assertThat(told).containsExactly("first 1", "third payment");
    }

    @Test
    void toBuilderDerivesAPolicyAndLeavesTheOriginalUnchanged() {
        RetryBudget budget = new RetryBudget(0.1, 10, Duration.ofSeconds(10), new VirtualTimeSource());
        List<String> told = new ArrayList<>();
        RetryPolicy original = RetryPolicy.builder()
            .maxAttempts(4)
            .retryOn(IOException.class)
            .abortOn(FileNotFoundException.class)
            .attemptTimeout(Duration.ofSeconds(1))
            .maxDuration(Duration.ofSeconds(10))
            .budget(budget)
            .listener((event) -> told.add("original"))
            .build();
        RetryPolicy derived = original.toBuilder()
            .maxAttempts(2)
            .attemptTimeout(null)
            .listener((event) -> told.add("derived"))
            .build();
        assertThat(derived.maxAttempts()).isEqualTo(2);
        assertThat(derived.attemptTimeout()).isNull();
        assertThat(derived.maxDuration()).isEqualTo(Duration.ofSeconds(10));
        assertThat(derived.retryOn()).containsExactly(IOException.class);
        assertThat(derived.abortOn()).containsExactly(FileNotFoundException.class);
        assertThat(derived.budget()).isSameAs(budget);
        assertThat(derived.listeners()).hasSize(2);
        assertThat(original.maxAttempts()).isEqualTo(4);
        assertThat(original.attemptTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(original.listeners()).hasSize(1);
        derived.notifyRetry(EVENT);
        assertThat(told).containsExactly("original", "derived");
    }

    @Test
    void policyDoesNotChangeWhenTheListGivenToTheBuilderDoes() {
        List<Class<? extends Throwable>> types = new ArrayList<>(List.of(IOException.class));
        RetryPolicy policy = RetryPolicy.builder().retryOn(types).build();
        types.add(IllegalStateException.class);
        assertThat(policy.retryOn()).containsExactly(IOException.class);
        assertThat(policy.isRetryable(new IllegalStateException())).isFalse();
    }

    @Test
    void outOfRangeSettingsAreRefusedByName() {
        RetryPolicy.Builder builder = RetryPolicy.builder();
        assertThatIllegalArgumentException().isThrownBy(() -> builder.maxAttempts(0))
            .withMessage("maxAttempts must be >= 1, was 0");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.attemptTimeout(Duration.ZERO))
            .withMessage("attemptTimeout must be positive, was PT0S");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.maxDuration(Duration.ofSeconds(-1)))
            .withMessage("maxDuration must be positive, was PT-1S");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.retryOn(IOException.class, null))
            .withMessageStartingWith("retryOn");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.abortOn((List<Class<? extends Throwable>>) null))
            .withMessageStartingWith("abortOn");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.backoff(null)).withMessageStartingWith("backoff");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.random(null)).withMessageStartingWith("random");
        assertThatIllegalArgumentException().isThrownBy(() -> builder.listener(null))
            .withMessageStartingWith("listener");
        assertThat(builder.build().maxAttempts()).isEqualTo(3);
    }

    @Test
    void oneAttemptMeansNoRetry() {
        assertThat(RetryPolicy.builder().maxAttempts(1).build().maxAttempts()).isEqualTo(1);
    }

    @Test
    void retriesOnResultOnlyOnceAPredicateIsSetAndKeepsItThroughToBuilder() {
        RetryPolicy plain = RetryPolicy.builder().build();
        RetryPolicy judging = RetryPolicy.builder().retryOnResult((value) -> value == null).build();

        assertThat(plain.retriesOnResult()).isFalse();
        assertThat(plain.toBuilder().maxAttempts(5).build().retriesOnResult()).isFalse();
        assertThat(judging.retriesOnResult()).isTrue();
        assertThat(judging.toBuilder().maxAttempts(5).build().shouldRetryResult(null)).isTrue();
    }

}
