package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Review findings on the retry stage with result predicates and on a clock whose readings
 * wrap.
 */
class RetryStageReviewTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private static Backoff fixed(Duration delay) {
        return Backoff.of(delay, 1.0, delay, Jitter.NONE);
    }

    /**
     * Shows that a value {@code retryOnResult} rejects is not retried when the policy
     * names the exception types it retries ({@code retryOn}): the
     * {@link RejectedResultException} that stands for the value is not one of them, so
     * the call ends after one attempt as a business FAILURE, where
     * {@code retryOnResult}'s Javadoc and DESIGN 12 say such a value is retried, and ends
     * ERROR with a {@link RejectedResultException} once no attempt is left.
     */
    @Test
    void aRejectedValueIsRetriedWhenTheRetryPolicyNamesTheExceptionTypesItRetries() {
        AtomicInteger attempts = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("stock")
            .timeSource(this.clock)
            .retry(RetryPolicy.builder()
                .maxAttempts(3)
                .backoff(fixed(Duration.ofMillis(10)))
                .retryOn(IOException.class)
                .retryOnResult((value) -> "empty".equals(value))
                .build())
            .build();

        ExecutionResult<String> sync = pipeline.execute(() -> (attempts.incrementAndGet() < 3) ? "empty" : "full");
        ExecutionResult<String> exhausted = pipeline.execute(() -> "empty");

        assertThat(sync.attempts()).as("attempts of a call whose first two values are rejected").isEqualTo(3);
        assertThat(sync.value()).isEqualTo("full");
        assertThat(exhausted.status()).as("a value rejected to the last attempt").isEqualTo(ExecutionStatus.ERROR);
        assertThat(exhausted.attempts()).isEqualTo(3);
    }

    /**
     * Shows that a call whose clock reads just before {@link Long#MAX_VALUE} (a legal
     * {@code nanoTime}, whose differences alone count) loses its {@code maxDuration}: the
     * deadline is saturated at {@code Long.MAX_VALUE - 1} instead of wrapping, so a 10ms
     * backoff inside a 10s deadline is refused as past it.
     */
    @Test
    void aCallStartedJustBeforeTheClockWrapsKeepsItsWholeMaxDuration() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("stock")
            .timeSource(new ClockNearWrap(this.clock, Duration.ofMillis(1).toNanos()))
            .retry(RetryPolicy.builder()
                .maxAttempts(2)
                .backoff(fixed(Duration.ofMillis(10)))
                .maxDuration(Duration.ofSeconds(10))
                .build())
            .build();

        ExecutionResult<String> sync = pipeline.execute(() -> {
            if (attempts.incrementAndGet() == 1) {
                throw new IOException("blip");
            }
            return "ok";
        });
        AtomicInteger asyncAttempts = new AtomicInteger();
        CompletableFuture<ExecutionResult<String>> async = pipeline.executeAsync(CallContext.empty(),
                () -> (asyncAttempts.incrementAndGet() == 1) ? CompletableFuture.failedFuture(new IOException("blip"))
                        : CompletableFuture.completedFuture("ok"));
        this.clock.advance(Duration.ofMillis(10));

        assertThat(sync.status()).as("sync, retried 10ms into a 10s deadline " + sync.error())
            .isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(async.join().status()).as("async").isEqualTo(ExecutionStatus.SUCCESS);
    }

}
