package dev.resilience.benchmarks.storm;

import java.time.Duration;
import java.util.random.RandomGenerator;

import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.TimeSource;

/**
 * The retry strategies compared by the simulator. All but {@link #IMMEDIATE} use the
 * engine's default backoff (200 ms, doubling, capped at 5 s) and differ in jitter and
 * budget only.
 */
public enum RetryStrategy {

    /** Retries at once, no delay. */
    IMMEDIATE("immediate", "immediate retries", Backoff.none(), false),

    /** Exponential backoff without jitter. */
    EXPONENTIAL("exponential", "exponential, no jitter", defaultBackoff(Jitter.NONE), false),

    /** Exponential backoff with full jitter. */
    FULL_JITTER("full-jitter", "full jitter", defaultBackoff(Jitter.FULL), false),

    /** Decorrelated jitter. */
    DECORRELATED_JITTER("decorrelated-jitter", "decorrelated jitter", defaultBackoff(Jitter.DECORRELATED), false),

    /** Full jitter and the default retry budget: the engine's defaults. */
    FULL_JITTER_BUDGET("full-jitter-budget", "full jitter + budget (our default)", defaultBackoff(Jitter.FULL), true);

    private final String id;

    private final String label;

    private final Backoff backoff;

    private final boolean budget;

    RetryStrategy(String id, String label, Backoff backoff, boolean budget) {
        this.id = id;
        this.label = label;
        this.backoff = backoff;
        this.budget = budget;
    }

    /**
     * Returns the strategy's identifier, used as a CSV column.
     * @return a lower-case identifier
     */
    public String id() {
        return this.id;
    }

    /**
     * Returns the strategy's name for tables and the chart's legend.
     * @return a readable name
     */
    public String label() {
        return this.label;
    }

    /**
     * Builds the retry policy of this strategy; a budget, if any, is new and shared by
     * every call made with the policy.
     * @param maxAttempts the attempts of a call, the first included
     * @param random the seeded generator of the jitter
     * @param time the virtual clock the budget counts on
     * @return the policy
     */
    public RetryPolicy policy(int maxAttempts, RandomGenerator random, TimeSource time) {
        RetryBudget retryBudget = this.budget ? new RetryBudget(RetryBudget.DEFAULT_RATIO,
                RetryBudget.DEFAULT_MIN_RETRIES_PER_SECOND, RetryBudget.DEFAULT_WINDOW, time) : null;
        return RetryPolicy.builder()
            .maxAttempts(maxAttempts)
            .backoff(this.backoff)
            .budget(retryBudget)
            .random(random)
            .build();
    }

    private static Backoff defaultBackoff(Jitter jitter) {
        return Backoff.of(Backoff.DEFAULT_DELAY, Backoff.DEFAULT_MULTIPLIER, Backoff.DEFAULT_MAX_DELAY, jitter);
    }

    /**
     * Returns a bound on how long the retries of one call can last: every wait is at most
     * the default maximum delay.
     * @param maxAttempts the attempts of a call, the first included
     * @return the bound
     */
    static Duration longestRetrySpan(int maxAttempts) {
        return Backoff.DEFAULT_MAX_DELAY.multipliedBy(maxAttempts);
    }

}
