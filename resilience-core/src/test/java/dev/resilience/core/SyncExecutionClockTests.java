package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.bulkhead.BulkheadType;
import dev.resilience.core.bulkhead.LimitAlgorithm;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A synchronous call through {@link ResiliencePipeline#call} reads the clock only for
 * what needs it: no read for guards that use no duration (a fixed bulkhead, a rate
 * limiter), the attempt's start and end for a guard that does (the breaker's slow calls,
 * an adaptive bulkhead), the call's start for a retry budget on the pipeline's clock, and
 * the first attempt's start for a dead letter. Each test counts the reads of the
 * pipeline's clock, or checks what a policy learnt from the durations it heard.
 */
class SyncExecutionClockTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final CountingReads time = new CountingReads(this.clock);

    private Bulkhead fixedBulkhead() {
        return Bulkhead.of("inventory", BulkheadConfig.builder().maxConcurrentCalls(2).build(), this.time);
    }

    @Test
    void aCallThroughAFixedBulkheadReadsNoClockAndGivesItsPermitBack() throws Exception {
        Bulkhead bulkhead = fixedBulkhead();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.time)
            .bulkhead(bulkhead)
            .build();
        this.time.reads.set(0);

        assertThat(pipeline.<String>call(() -> "ok")).isEqualTo("ok");

        assertThat(this.time.reads).hasValue(0);
        assertThat(bulkhead.permittedCalls()).isOne();
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void aCallThroughARateLimiterReadsTheClockOnlyInTheLimiter() throws Exception {
        RateLimiter limiter = RateLimiter.of("quotes",
                RateLimiterConfig.builder().limit(10).period(Duration.ofSeconds(1)).build(), this.time);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quotes")
            .timeSource(this.time)
            .rateLimiter(limiter)
            .bulkhead(fixedBulkhead())
            .build();
        this.time.reads.set(0);

        assertThat(pipeline.<String>call(() -> "ok")).isEqualTo("ok");

        assertThat(this.time.reads).as("the limiter's own reading").hasValue(1);
        assertThat(limiter.permittedCalls()).isOne();
    }

    @Test
    void aFailedCallThroughAFixedBulkheadGivesItsPermitBackAndThrowsItsError() {
        Bulkhead bulkhead = fixedBulkhead();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.time)
            .bulkhead(bulkhead)
            .build();

        assertThatExceptionOfType(IOException.class).isThrownBy(() -> pipeline.call(() -> {
            throw new IOException("down");
        }));
        assertThatExceptionOfType(StackOverflowError.class).isThrownBy(() -> pipeline.call(() -> {
            throw new StackOverflowError();
        }));

        assertThat(bulkhead.concurrentCalls()).isZero();
        assertThat(bulkhead.permittedCalls()).isEqualTo(2);
    }

    @Test
    void theBreakerBesideAFixedBulkheadStillTimesTheAttemptAndFindsASlowCall() throws Exception {
        CircuitBreaker breaker = CircuitBreaker.of("inventory",
                CircuitBreakerConfig.builder().slowCallDuration(Duration.ofSeconds(1)).build(), this.time);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.time)
            .circuitBreaker(breaker)
            .bulkhead(fixedBulkhead())
            .build();

        pipeline.call(() -> {
            this.clock.advance(Duration.ofSeconds(2));
            return "late";
        });
        pipeline.call(() -> "ok");

        assertThat(breaker.metrics().slowCallsTotal()).isOne();
        assertThat(breaker.metrics().successfulCallsTotal()).isEqualTo(2);
    }

    @Test
    void anAdaptiveBulkheadLearnsFromTheDurationOfEachAttempt() throws Exception {
        Bulkhead bulkhead = Bulkhead.of("adaptive",
                BulkheadConfig.builder()
                    .type(BulkheadType.ADAPTIVE)
                    .algorithm(LimitAlgorithm.AIMD)
                    .maxConcurrentCalls(20)
                    .minLimit(2)
                    .latencyThreshold(Duration.ofMillis(50))
                    .build(),
                this.time);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("adaptive")
            .timeSource(this.time)
            .bulkhead(bulkhead)
            .build();

        for (int call = 1; call < 20; call++) {
            pipeline.call(() -> {
                this.clock.advance(Duration.ofMillis(100));
                return "slow";
            });
        }
        assertThat(bulkhead.limit()).as("the limit is decided once per window of 20 calls").isEqualTo(20);
        pipeline.call(() -> {
            this.clock.advance(Duration.ofMillis(100));
            return "slow";
        });

        assertThat(bulkhead.limit()).as("a window of calls above the threshold lowers the limit").isEqualTo(18);
        assertThat(bulkhead.concurrentCalls()).isZero();
    }

    @Test
    void aRetryBudgetOnThePipelinesClockCountsTheCallAtItsStartWithOneRead() throws Exception {
        RetryBudget budget = new RetryBudget(0.1, 10, Duration.ofSeconds(10), this.time);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.time)
            .retry(RetryPolicy.builder().maxAttempts(2).budget(budget).build())
            .bulkhead(fixedBulkhead())
            .build();
        this.time.reads.set(0);

        assertThat(pipeline.<String>call(() -> "ok")).isEqualTo("ok");

        assertThat(this.time.reads).hasValue(1);
    }

    @Test
    void aDeadLetterSaysWhenTheFirstAttemptBeganThoughNoGuardUsesItsDuration() {
        InMemoryDeadLetterStore letters = new InMemoryDeadLetterStore(10, Duration.ofDays(1), this.time);
        ResiliencePipeline pipeline = ResiliencePipeline.builder("inventory")
            .timeSource(this.time)
            .retry(RetryPolicy.builder()
                .maxAttempts(2)
                .backoff(Backoff.of(Duration.ofSeconds(1), 1.0, Duration.ofSeconds(1), Jitter.NONE))
                .build())
            .bulkhead(fixedBulkhead())
            .deadLetters(letters)
            .build();
        Instant firstStart = this.clock.now();
        AtomicInteger attempts = new AtomicInteger();

        assertThatExceptionOfType(IOException.class).isThrownBy(() -> pipeline.call(() -> {
            attempts.incrementAndGet();
            this.clock.advance(Duration.ofSeconds(5));
            throw new IOException("down");
        }));

        DeadLetter letter = letters.list(10).get(0);
        assertThat(attempts).hasValue(2);
        assertThat(letter.firstAttemptAt()).isEqualTo(firstStart);
        assertThat(letter.lastAttemptAt()).isEqualTo(firstStart.plusSeconds(6));
    }

}
