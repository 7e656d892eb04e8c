package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryEvent;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs random retry policies over random scripts of attempts through
 * {@link ResiliencePipeline#execute} on a virtual clock, and checks the call against the
 * {@link RetryModel}: status, attempts, failures, final error, every wait and the
 * duration.
 */
class RetryModelTests {

    private static final int CALLS = 5_000;

    private final Map<String, Integer> coverage = new TreeMap<>();

    @Test
    void retriesWaitWithinTheBackoffBoundsAndEndAsTheModelSays() {
        PropertyCheck.forAll("retries agree with the model", RetryCall::generate)
            .shrinking(RetryModelTests::simpler)
            .holds(CALLS, this::agreesWithTheModel);

        for (String ending : List.of("SUCCESS", "FAILURE", "ERROR", "TIMEOUT by DeadlineExceededException",
                "an attempt overran the deadline", "retried with NONE", "retried with FULL", "retried with EQUAL",
                "retried with DECORRELATED")) {
            assertThat(this.coverage.getOrDefault(ending, 0)).as("calls that ended " + ending + " in " + this.coverage)
                .isGreaterThan(CALLS / 100);
        }
    }

    private void agreesWithTheModel(RetryCall call) {
        VirtualTimeSource clock = new VirtualTimeSource();
        List<RetryEvent> retries = new ArrayList<>();
        RetryPolicy policy = RetryPolicy.builder()
            .maxAttempts(call.maxAttempts())
            .backoff(call.backoff())
            .abortOn(RetryCall.DeclinedException.class)
            .maxDuration((call.maxDurationMillis() > 0) ? Duration.ofMillis(call.maxDurationMillis()) : null)
            .random(call.draw())
            .build();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("payments")
            .timeSource(clock)
            .retry(policy)
            .listener(new ExecutionListener() {
                @Override
                public void onRetry(String name, RetryEvent event) {
                    retries.add(event);
                }
            })
            .build();
        List<Long> starts = new ArrayList<>();

        ExecutionResult<String> result = pipeline.execute(() -> {
            RetryCall.Attempt attempt = call.attempts().get(starts.size());
            starts.add(clock.nanoTime());
            clock.advance(Duration.ofMillis(attempt.millis()));
            return switch (attempt.ending()) {
                case SUCCESS -> "paid";
                case RETRYABLE_ERROR -> throw new IOException("connection reset");
                case NON_RETRYABLE_ERROR -> throw new RetryCall.DeclinedException();
            };
        });

        List<Duration> waits = retries.stream().map(RetryEvent::delay).toList();
        long previous = 0;
        for (int retry = 1; retry <= waits.size(); retry++) {
            long wait = waits.get(retry - 1).toNanos();
            long[] bounds = RetryModel.bounds(call.backoff(), retry, previous);
            assertThat(wait).as("wait before retry " + retry)
                .isBetween(bounds[0], bounds[1])
                .isLessThanOrEqualTo(call.backoff().maxDelay().toNanos());
            previous = wait;
        }
        assertThat(clock.sleeps()).as("sleeps").isEqualTo(waits.stream().filter((wait) -> !wait.isZero()).toList());
        if (call.maxDurationMillis() > 0) {
            assertThat(starts).as("attempt starts")
                .allSatisfy(
                        (start) -> assertThat(start).isLessThan(Duration.ofMillis(call.maxDurationMillis()).toNanos()));
        }
        RetryModel.Outcome actual = new RetryModel.Outcome(result.status(), result.attempts(), result.attemptFailures()
            .stream()
            .map((failure) -> failure.attempt() + ": " + chain(failure.error()) + " after " + failure.duration())
            .toList(), chain(result.error()), waits, result.duration());
        assertThat(actual).isEqualTo(RetryModel.expect(call));
        String ending = (result.status() == ExecutionStatus.TIMEOUT)
                ? "TIMEOUT by " + result.error().getClass().getSimpleName() : result.status().name();
        this.coverage.merge(ending, 1, Integer::sum);
        if (result.attemptFailures()
            .stream()
            .anyMatch((failure) -> failure.error() instanceof AttemptTimeoutException)) {
            this.coverage.merge("an attempt overran the deadline", 1, Integer::sum);
        }
        if (!waits.isEmpty()) {
            this.coverage.merge("retried with " + call.backoff().jitter(), 1, Integer::sum);
        }
    }

    private static String chain(Throwable error) {
        if (error == null) {
            return "";
        }
        String name = error.getClass().getSimpleName();
        return (error.getCause() != null) ? name + " <- " + chain(error.getCause()) : name;
    }

    /** Fewer attempts, no deadline, the lowest draw, no jitter, no growth. */
    private static Stream<RetryCall> simpler(RetryCall call) {
        Backoff backoff = call.backoff();
        Stream.Builder<RetryCall> simpler = Stream.builder();
        if (call.maxAttempts() > 1) {
            simpler.add(new RetryCall(call.maxAttempts() - 1, backoff, call.draw(), call.maxDurationMillis(),
                    call.attempts().subList(0, call.maxAttempts() - 1)));
        }
        if (call.maxDurationMillis() > 0) {
            simpler.add(new RetryCall(call.maxAttempts(), backoff, call.draw(), 0, call.attempts()));
        }
        if (call.draw().fraction() != 0) {
            simpler.add(new RetryCall(call.maxAttempts(), backoff, new RetryModel.Draw(0), call.maxDurationMillis(),
                    call.attempts()));
        }
        if (backoff.jitter() != Jitter.NONE) {
            simpler.add(new RetryCall(call.maxAttempts(),
                    Backoff.of(backoff.delay(), backoff.multiplier(), backoff.maxDelay(), Jitter.NONE), call.draw(),
                    call.maxDurationMillis(), call.attempts()));
        }
        if (backoff.multiplier() != 1.0) {
            simpler.add(new RetryCall(call.maxAttempts(),
                    Backoff.of(backoff.delay(), 1.0, backoff.maxDelay(), backoff.jitter()), call.draw(),
                    call.maxDurationMillis(), call.attempts()));
        }
        return simpler.build();
    }

}
