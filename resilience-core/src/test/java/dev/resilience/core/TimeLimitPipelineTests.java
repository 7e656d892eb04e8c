package dev.resilience.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests of {@link ResiliencePipeline.Builder#timeLimit}: an attempt time limit without a
 * retry policy.
 */
class TimeLimitPipelineTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final InMemoryDeadLetterStore deadLetters = new InMemoryDeadLetterStore();

    private ResiliencePipeline.Builder pipeline() {
        return ResiliencePipeline.builder("quote").timeSource(this.clock).deadLetters(this.deadLetters);
    }

    @Test
    void overrunningAttemptIsInterruptedAndEndsTheCallAsTimeoutWithoutADeadLetter() {
        ResiliencePipeline pipeline = pipeline().timeLimit(Duration.ofSeconds(1)).build();

        ExecutionResult<String> result = pipeline.execute(() -> {
            this.clock.advance(Duration.ofSeconds(2));
            TimeUnit.SECONDS.sleep(30);
            return "late";
        });

        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.error()).isInstanceOf(AttemptTimeoutException.class)
            .hasCauseInstanceOf(InterruptedException.class);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(this.deadLetters.size()).isZero();
    }

    @Test
    void timeoutGoesToTheFallbacks() {
        ResiliencePipeline pipeline = pipeline().timeLimit(Duration.ofSeconds(1))
            .fallbacks(FallbackChain.of(FallbackHandler.of("cached", (error, call) -> "cached")))
            .build();

        ExecutionResult<String> result = pipeline.execute(() -> {
            this.clock.advance(Duration.ofSeconds(2));
            TimeUnit.SECONDS.sleep(30);
            return "late";
        });

        assertThat(result.value()).isEqualTo("cached");
        assertThat(result.fallbackUsed()).isTrue();
    }

    @Test
    void asynchronousAttemptHasItsStageCancelled() {
        CompletableFuture<String> neverCompletes = new CompletableFuture<>();
        ResiliencePipeline pipeline = pipeline().timeLimit(Duration.ofSeconds(1)).build();

        CompletableFuture<ExecutionResult<String>> future = pipeline.executeAsync(CallContext.empty(),
                () -> neverCompletes);
        this.clock.advance(Duration.ofSeconds(1));

        ExecutionResult<String> result = future.join();
        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.error()).isInstanceOf(AttemptTimeoutException.class);
        assertThat(neverCompletes).isCancelled();
        assertThat(this.deadLetters.size()).isZero();
    }

    @Test
    void shorterOfTimeLimitAndRetryAttemptTimeoutApplies() {
        AtomicInteger calls = new AtomicInteger();
        ResiliencePipeline limitShorter = pipeline().timeLimit(Duration.ofMillis(200))
            .retry(RetryPolicy.builder().maxAttempts(1).attemptTimeout(Duration.ofSeconds(1)).build())
            .build();
        ResiliencePipeline retryShorter = pipeline().timeLimit(Duration.ofSeconds(1))
            .retry(RetryPolicy.builder().maxAttempts(1).attemptTimeout(Duration.ofMillis(300)).build())
            .build();

        ExecutionResult<String> first = limitShorter.execute(() -> {
            calls.incrementAndGet();
            this.clock.advance(Duration.ofMillis(250));
            return "late";
        });
        ExecutionResult<String> second = retryShorter.execute(() -> {
            calls.incrementAndGet();
            this.clock.advance(Duration.ofMillis(350));
            return "late";
        });

        assertThat(first.error()).isInstanceOfSatisfying(AttemptTimeoutException.class,
                (ex) -> assertThat(ex.timeout()).isEqualTo(Duration.ofMillis(200)));
        assertThat(second.error()).isInstanceOfSatisfying(AttemptTimeoutException.class,
                (ex) -> assertThat(ex.timeout()).isEqualTo(Duration.ofMillis(300)));
        assertThat(calls).hasValue(2);
    }

    @Test
    void timeLimitMustBePositive() {
        assertThatIllegalArgumentException().isThrownBy(() -> pipeline().timeLimit(Duration.ZERO));
        assertThat(pipeline().timeLimit(null).build().timeLimit()).isNull();
    }

}
