package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerMetrics;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call that starts without an execution ({@link Stages#statelessStart}) behaves as the
 * same call through a pipeline that needs one, for every outcome of its attempts.
 */
class SyncExecutionTests {

    /** What an attempt does. */
    private enum Outcome {

        VALUE, REJECTED_VALUE, RETRYABLE, NOT_RETRYABLE, NESTED_REJECTION, INTERRUPTED, ERROR

    }

    @Test
    void callStartingWithoutAnExecutionEndsAsOneStartingWithIt() {
        List<String> differences = new ArrayList<>();
        for (boolean breakerOpen : new boolean[] { false, true }) {
            for (boolean withFallback : new boolean[] { false, true }) {
                for (Outcome first : Outcome.values()) {
                    for (Outcome second : Outcome.values()) {
                        List<Outcome> outcomes = List.of(first, second, Outcome.VALUE);
                        String stateless = account(outcomes, breakerOpen, withFallback, false);
                        String withExecution = account(outcomes, breakerOpen, withFallback, true);
                        if (!stateless.equals(withExecution)) {
                            differences.add(outcomes + " open=" + breakerOpen + " fallback=" + withFallback
                                    + "\n  without execution: " + stateless + "\n  with execution:    "
                                    + withExecution);
                        }
                    }
                }
            }
        }
        assertThat(differences).isEmpty();
    }

    /**
     * Runs one call and describes everything the caller and the policies saw of it.
     */
    private static String account(List<Outcome> outcomes, boolean breakerOpen, boolean withFallback,
            boolean withListener) {
        VirtualTimeSource time = new VirtualTimeSource();
        AtomicInteger resultChecks = new AtomicInteger();
        RetryBudget budget = new RetryBudget(1.0, 10, Duration.ofSeconds(10), time);
        RetryPolicy retry = RetryPolicy.builder()
            .maxAttempts(3)
            .backoff(Backoff.of(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), Jitter.NONE))
            .abortOn(List.of(IllegalArgumentException.class))
            .retryOnResult((value) -> {
                resultChecks.incrementAndGet();
                return "rejected".equals(value);
            })
            .budget(budget)
            .build();
        CircuitBreaker breaker = CircuitBreaker.of("payment", CircuitBreakerConfig.builder().build(), time);
        if (breakerOpen) {
            breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        }
        AtomicInteger fallbacks = new AtomicInteger();
        ResiliencePipeline.Builder builder = ResiliencePipeline.builder("payment")
            .timeSource(time)
            .retry(retry)
            .circuitBreaker(breaker);
        if (withFallback) {
            builder.fallbacks(FallbackChain.of(FallbackHandler.of("cached", (error, call) -> {
                fallbacks.incrementAndGet();
                return "cached";
            })));
        }
        List<ExecutionResult<?>> results = new ArrayList<>();
        if (withListener) {
            builder.listener(new ExecutionListener() {
                @Override
                public void onComplete(String name, ExecutionResult<?> result) {
                    results.add(result);
                }
            });
        }
        ResiliencePipeline pipeline = builder.build();
        AtomicInteger attempts = new AtomicInteger();
        Callable<String> action = () -> act(outcomes.get(attempts.getAndIncrement()));
        String ending;
        try {
            ending = "value " + pipeline.call(action);
        }
        catch (Throwable ex) {
            ending = "thrown " + ex.getClass().getSimpleName() + " suppressed " + ex.getSuppressed().length;
        }
        boolean interrupted = Thread.interrupted();
        CircuitBreakerMetrics metrics = breaker.metrics();
        return ending + ", attempts " + attempts + ", result checks " + resultChecks + ", fallbacks " + fallbacks
                + ", interrupted " + interrupted + ", sleeps " + time.sleeps() + ", breaker "
                + metrics.successfulCallsTotal() + "/" + metrics.failedCallsTotal() + "/"
                + metrics.notPermittedCallsTotal() + ", budget " + budget.callsInWindow() + "/"
                + budget.retriesInWindow() + "/" + budget.refusedTotal();
    }

    private static String act(Outcome outcome) throws Exception {
        return switch (outcome) {
            case VALUE -> "paid";
            case REJECTED_VALUE -> "rejected";
            case RETRYABLE -> throw new IOException("reset");
            case NOT_RETRYABLE -> throw new IllegalArgumentException("no such account");
            case NESTED_REJECTION -> throw new CallNotPermittedException("bank", CircuitBreakerState.OPEN, null);
            case INTERRUPTED -> throw new InterruptedException();
            case ERROR -> throw new StackOverflowError();
        };
    }

}
