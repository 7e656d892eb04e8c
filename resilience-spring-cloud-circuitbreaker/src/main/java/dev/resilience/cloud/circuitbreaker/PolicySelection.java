package dev.resilience.cloud.circuitbreaker;

import org.springframework.cloud.client.circuitbreaker.ConfigBuilder;

/**
 * The configuration of a Spring Cloud circuit breaker: which of the engine's policies run
 * around its calls besides the circuit breaker, which always does. How each policy is set
 * up is the YAML's business ({@code resilience.retry}, {@code resilience.time-limiter},
 * {@code resilience.bulkhead}, instance over defaults): a selection only switches a
 * policy on for an id whose YAML does not name it under {@code instances}, where it runs
 * with the YAML defaults. A policy the YAML configures for the instance's name runs
 * whatever the selection says.
 *
 * <pre class="code">
 * factory.configure((selection) -&gt; selection.retry().timeLimiter(), "inventory");
 * factory.configureDefault((id) -&gt; PolicySelection.builder().timeLimiter().build());
 * </pre>
 *
 * @param retry whether failed attempts are retried, by the retry instance of the name
 * @param timeLimiter whether each attempt is limited in time, by the time limiter of the
 * name
 * @param bulkhead whether attempts pass the bulkhead of the name
 */
public record PolicySelection(boolean retry, boolean timeLimiter, boolean bulkhead) {

    private static final PolicySelection NONE = new PolicySelection(false, false, false);

    /**
     * Returns the selection of the circuit breaker alone.
     * @return the selection with no policy switched on
     */
    public static PolicySelection none() {
        return NONE;
    }

    /**
     * Starts a selection of the circuit breaker alone.
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the selection with every policy switched on in either.
     * @param other another selection
     * @return the union of both
     */
    public PolicySelection or(PolicySelection other) {
        return new PolicySelection(this.retry || other.retry, this.timeLimiter || other.timeLimiter,
                this.bulkhead || other.bulkhead);
    }

    /**
     * Builds a {@link PolicySelection}; the factories hand one to
     * {@code configure(Consumer, String...)} for each id. Not thread-safe.
     */
    public static final class Builder implements ConfigBuilder<PolicySelection> {

        private boolean retry;

        private boolean timeLimiter;

        private boolean bulkhead;

        Builder() {
        }

        /**
         * Switches retries on.
         * @return this builder
         */
        public Builder retry() {
            this.retry = true;
            return this;
        }

        /**
         * Switches the time limit of each attempt on.
         * @return this builder
         */
        public Builder timeLimiter() {
            this.timeLimiter = true;
            return this;
        }

        /**
         * Switches the bulkhead on.
         * @return this builder
         */
        public Builder bulkhead() {
            this.bulkhead = true;
            return this;
        }

        /**
         * Returns the selection.
         * @return the selection
         */
        @Override
        public PolicySelection build() {
            return new PolicySelection(this.retry, this.timeLimiter, this.bulkhead);
        }

    }

}
