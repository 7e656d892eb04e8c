package dev.resilience.registry;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.retry.RetryEvent;

/**
 * Counts what happens to the calls of one named instance: calls by status, retries,
 * budget refusals, fallbacks by method and outcome, idempotency decisions and dead
 * letters. It is the one source that both the Micrometer meters and the {@code retries}
 * endpoint read. Thread-safe; counting is a {@link LongAdder} increment.
 */
public final class CallStatistics implements ExecutionListener {

    private final String name;

    private final LongAdder[] calls = adders(ExecutionStatus.values().length);

    private final LongAdder retries = new LongAdder();

    private final LongAdder budgetRefused = new LongAdder();

    private final LongAdder fallbacksUsed = new LongAdder();

    private final LongAdder deadLetters = new LongAdder();

    private final Map<String, LongAdder[]> fallbacks = new ConcurrentHashMap<>();

    private final Map<String, LongAdder[]> idempotency = new ConcurrentHashMap<>();

    CallStatistics(String name) {
        this.name = name;
    }

    /**
     * Returns the instance's name.
     * @return the name
     */
    public String name() {
        return this.name;
    }

    /**
     * Makes a fallback method known before its first use, so that its counts exist from
     * the start.
     * @param fallbackName the fallback method's name
     */
    public void registerFallback(String fallbackName) {
        this.fallbacks.computeIfAbsent(fallbackName, (key) -> adders(2));
    }

    /**
     * Makes an idempotency name known before its first use.
     * @param idempotencyName the name of an idempotency policy used by this instance
     */
    public void registerIdempotency(String idempotencyName) {
        this.idempotency.computeIfAbsent(idempotencyName, (key) -> adders(IdempotencyOutcome.values().length));
    }

    /**
     * Returns how many calls ended with a status.
     * @param status the status
     * @return the count
     */
    public long calls(ExecutionStatus status) {
        return this.calls[status.ordinal()].sum();
    }

    /**
     * Returns how many retries were made.
     * @return the count
     */
    public long retries() {
        return this.retries.sum();
    }

    /**
     * Returns how many retries the budget refused.
     * @return the count
     */
    public long budgetRefused() {
        return this.budgetRefused.sum();
    }

    /**
     * Returns how many calls a fallback answered.
     * @return the count
     */
    public long fallbacksUsed() {
        return this.fallbacksUsed.sum();
    }

    /**
     * Returns how many dead letters were written.
     * @return the count
     */
    public long deadLetters() {
        return this.deadLetters.sum();
    }

    /**
     * Returns the names of the fallback methods known so far, sorted.
     * @return the fallback names
     */
    public Set<String> fallbackNames() {
        return new TreeSet<>(this.fallbacks.keySet());
    }

    /**
     * Returns how often a fallback was tried with an outcome.
     * @param fallbackName the fallback method's name
     * @param success {@code true} for the tries that produced a value
     * @return the count
     */
    public long fallbacks(String fallbackName, boolean success) {
        LongAdder[] counts = this.fallbacks.get(fallbackName);
        return (counts != null) ? counts[success ? 0 : 1].sum() : 0;
    }

    /**
     * Returns the names of the idempotency policies known so far, sorted.
     * @return the idempotency names
     */
    public Set<String> idempotencyNames() {
        return new TreeSet<>(this.idempotency.keySet());
    }

    /**
     * Returns how often the idempotency store decided an outcome.
     * @param idempotencyName the idempotency policy's name
     * @param outcome the decision
     * @return the count
     */
    public long idempotency(String idempotencyName, IdempotencyOutcome outcome) {
        LongAdder[] counts = this.idempotency.get(idempotencyName);
        return (counts != null) ? counts[outcome.ordinal()].sum() : 0;
    }

    @Override
    public void onRetry(String pipelineName, RetryEvent event) {
        this.retries.increment();
    }

    @Override
    public void onBudgetRefused(String pipelineName) {
        this.budgetRefused.increment();
    }

    @Override
    public void onFallback(String pipelineName, String fallbackName, boolean success) {
        this.fallbacks.computeIfAbsent(fallbackName, (key) -> adders(2))[success ? 0 : 1].increment();
    }

    @Override
    public void onIdempotency(String idempotencyName, IdempotencyOutcome outcome) {
        this.idempotency.computeIfAbsent(idempotencyName, (key) -> adders(IdempotencyOutcome.values().length))[outcome
            .ordinal()].increment();
    }

    @Override
    public void onDeadLetter(DeadLetter deadLetter) {
        this.deadLetters.increment();
    }

    @Override
    public void onComplete(String pipelineName, ExecutionResult<?> result) {
        this.calls[result.status().ordinal()].increment();
        if (result.fallbackUsed()) {
            this.fallbacksUsed.increment();
        }
    }

    private static LongAdder[] adders(int count) {
        LongAdder[] adders = new LongAdder[count];
        for (int i = 0; i < count; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }

}
