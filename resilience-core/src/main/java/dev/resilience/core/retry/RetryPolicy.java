package dev.resilience.core.retry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

import dev.resilience.core.support.ExceptionFilter;
import org.jspecify.annotations.Nullable;

/**
 * What to retry and how: the attempts, the backoff, which errors and results call for
 * another attempt, the per-attempt timeout, the overall deadline and the retry budget.
 * Retries are observed with {@link dev.resilience.core.ExecutionListener#onRetry}, added
 * to the pipeline.
 *
 * <p>
 * Immutable and thread-safe (as long as the listeners, predicates and random generator
 * given to the builder are), built by a {@link Builder} that validates every setting when
 * it is set. The policy holds the decisions; the retry executor runs the attempts with
 * them.
 *
 * <p>
 * Longer than 400 lines because it is an immutable policy and its validating builder in
 * one file, as the builder pattern of this API wants: each setting has a documented
 * accessor and a documented builder method.
 */
public final class RetryPolicy {

    /** The default number of attempts, the first included: 3. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;

    /** The fewest attempts a policy may allow: 1, the first attempt and no retry. */
    public static final int MIN_MAX_ATTEMPTS = 1;

    private static final System.Logger logger = System.getLogger(RetryPolicy.class.getName());

    private static final Predicate<Throwable> ANY_ERROR = (error) -> true;

    private static final Predicate<@Nullable Object> NO_RESULT = (result) -> false;

    private final int maxAttempts;

    private final Backoff backoff;

    private final List<Class<? extends Throwable>> retryOn;

    private final List<Class<? extends Throwable>> abortOn;

    private final Predicate<Throwable> retryOnError;

    private final Predicate<@Nullable Object> retryOnResult;

    private final @Nullable Duration attemptTimeout;

    private final @Nullable Duration maxDuration;

    private final @Nullable RetryBudget budget;

    @SuppressWarnings("removal")
    private final List<RetryListener> listeners;

    private final RandomGenerator random;

    private RetryPolicy(Builder builder) {
        this.maxAttempts = builder.maxAttempts;
        this.backoff = builder.backoff;
        this.retryOn = builder.retryOn;
        this.abortOn = builder.abortOn;
        this.retryOnError = builder.retryOnError;
        this.retryOnResult = builder.retryOnResult;
        this.attemptTimeout = builder.attemptTimeout;
        this.maxDuration = builder.maxDuration;
        this.budget = builder.budget;
        this.listeners = List.copyOf(builder.listeners);
        this.random = builder.random;
    }

    /**
     * Returns a policy with every default: 3 attempts, {@link Backoff}'s defaults, every
     * error retried, no result retried, no timeout, no deadline, no budget, no listener.
     * @return the default policy
     */
    public static RetryPolicy ofDefaults() {
        return builder().build();
    }

    /**
     * Returns a builder holding the defaults of {@link #ofDefaults()}.
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns a builder holding this policy's settings, to derive another policy from it.
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Returns how many attempts a call may make, the first included.
     * @return the maximum number of attempts, at least 1
     */
    public int maxAttempts() {
        return this.maxAttempts;
    }

    /**
     * Returns the waits between attempts.
     * @return the backoff
     */
    public Backoff backoff() {
        return this.backoff;
    }

    /**
     * Returns the error types to retry, subclasses included.
     * @return the retryable types; empty means every error not in {@link #abortOn()}
     */
    public List<Class<? extends Throwable>> retryOn() {
        return this.retryOn;
    }

    /**
     * Returns the error types never to retry, subclasses included; they win over
     * {@link #retryOn()}.
     * @return the non-retryable types
     */
    public List<Class<? extends Throwable>> abortOn() {
        return this.abortOn;
    }

    /**
     * Returns how long one attempt may run.
     * @return the positive attempt timeout, or {@code null} for none
     */
    public @Nullable Duration attemptTimeout() {
        return this.attemptTimeout;
    }

    /**
     * Returns how long the whole call may run, all attempts and waits included.
     * @return the positive deadline, or {@code null} for none
     */
    public @Nullable Duration maxDuration() {
        return this.maxDuration;
    }

    /**
     * Returns the budget that every retry must be granted by.
     * @return the shared budget, or {@code null} for none
     */
    public @Nullable RetryBudget budget() {
        return this.budget;
    }

    /**
     * Returns the listeners told of every retry.
     * @return the listeners, in the order they were added
     * @deprecated since 0.1.0, for removal, with {@link RetryListener}: retries are told
     * to the pipeline's {@link dev.resilience.core.ExecutionListener}s
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public List<RetryListener> listeners() {
        return this.listeners;
    }

    /**
     * Returns the source of randomness for jitter.
     * @return the generator; by default one safe for concurrent use
     */
    public RandomGenerator random() {
        return this.random;
    }

    /**
     * Returns whether an error calls for another attempt.
     * @param error what the attempt threw
     * @return {@code false} if it is an instance of a type in {@link #abortOn()};
     * otherwise whether {@link #retryOn()} is empty or it is an instance of a type in it,
     * and the builder's error predicate accepts it
     */
    public boolean isRetryable(Throwable error) {
        return ExceptionFilter.matches(error, this.retryOn, this.abortOn) && this.retryOnError.test(error);
    }

    /**
     * Returns whether a result calls for another attempt.
     * @param result what the attempt returned
     * @return what the builder's result predicate says; by default {@code false}
     */
    public boolean shouldRetryResult(@Nullable Object result) {
        return this.retryOnResult.test(result);
    }

    /**
     * Tells whether a predicate was set with {@link Builder#retryOnResult}, so that a
     * value an attempt returned may call for another attempt.
     * @return {@code false} when every value ends the call
     */
    public boolean retriesOnResult() {
        return this.retryOnResult != NO_RESULT;
    }

    /**
     * Draws the wait before a retry with this policy's backoff and random generator.
     * @param retry the retry's number, the first retry (second attempt) being 1
     * @param previousDelayNanos the wait drawn before the previous retry, 0 for the first
     * @return the wait in nanoseconds
     * @see Backoff#nextDelayNanos
     */
    public long nextDelayNanos(int retry, long previousDelayNanos) {
        return this.backoff.nextDelayNanos(retry, previousDelayNanos, this.random);
    }

    /**
     * Tells every listener of a retry, in order. A listener that throws a
     * {@link RuntimeException} is logged and skipped; the others are still told.
     * @param event the retry about to happen
     * @deprecated since 0.1.0, for removal, with {@link RetryListener}: the pipeline
     * tells its {@link dev.resilience.core.ExecutionListener}s of every retry
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public void notifyRetry(RetryEvent event) {
        for (RetryListener listener : this.listeners) {
            try {
                listener.onRetry(event);
            }
            catch (RuntimeException ex) {
                logger.log(System.Logger.Level.WARNING,
                        "Retry listener failed on " + event.name() + " after attempt " + event.attempt(), ex);
            }
        }
    }

    /**
     * Builds a {@link RetryPolicy}. Every setter validates its argument at once and
     * throws an {@link IllegalArgumentException} naming the setting. Not thread-safe.
     */
    public static final class Builder {

        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;

        private Backoff backoff = Backoff.of(Backoff.DEFAULT_DELAY, Backoff.DEFAULT_MULTIPLIER,
                Backoff.DEFAULT_MAX_DELAY, Backoff.DEFAULT_JITTER);

        private List<Class<? extends Throwable>> retryOn = List.of();

        private List<Class<? extends Throwable>> abortOn = List.of();

        private Predicate<Throwable> retryOnError = ANY_ERROR;

        private Predicate<@Nullable Object> retryOnResult = NO_RESULT;

        private @Nullable Duration attemptTimeout;

        private @Nullable Duration maxDuration;

        private @Nullable RetryBudget budget;

        @SuppressWarnings("removal")
        private final List<RetryListener> listeners = new ArrayList<>();

        private RandomGenerator random = ThreadLocalRandomGenerator.INSTANCE;

        private Builder() {
        }

        private Builder(RetryPolicy policy) {
            this.maxAttempts = policy.maxAttempts;
            this.backoff = policy.backoff;
            this.retryOn = policy.retryOn;
            this.abortOn = policy.abortOn;
            this.retryOnError = policy.retryOnError;
            this.retryOnResult = policy.retryOnResult;
            this.attemptTimeout = policy.attemptTimeout;
            this.maxDuration = policy.maxDuration;
            this.budget = policy.budget;
            this.listeners.addAll(policy.listeners);
            this.random = policy.random;
        }

        /**
         * Sets how many attempts a call may make, the first included.
         * @param maxAttempts at least {@link #MIN_MAX_ATTEMPTS}; 1 means no retry
         * @return this builder
         */
        public Builder maxAttempts(int maxAttempts) {
            if (maxAttempts < MIN_MAX_ATTEMPTS) {
                throw new IllegalArgumentException(
                        "maxAttempts must be >= " + MIN_MAX_ATTEMPTS + ", was " + maxAttempts);
            }
            this.maxAttempts = maxAttempts;
            return this;
        }

        /**
         * Sets the waits between attempts.
         * @param backoff the backoff; {@link Backoff#none()} for no wait
         * @return this builder
         */
        public Builder backoff(Backoff backoff) {
            this.backoff = requireNonNull(backoff, "backoff");
            return this;
        }

        /**
         * Sets the error types to retry, replacing any set before.
         * @param types the retryable types, subclasses included; empty means every error
         * not aborted on
         * @return this builder
         */
        public Builder retryOn(List<Class<? extends Throwable>> types) {
            this.retryOn = copyTypes(types, "retryOn");
            return this;
        }

        /**
         * Sets the error types to retry, replacing any set before.
         * @param types the retryable types, subclasses included; none means every error
         * not aborted on
         * @return this builder
         */
        @SafeVarargs
        @SuppressWarnings("varargs")
        public final Builder retryOn(Class<? extends Throwable>... types) {
            return retryOn(Arrays.asList(types));
        }

        /**
         * Sets the error types never to retry, replacing any set before. They win over
         * the types to retry.
         * @param types the non-retryable types, subclasses included
         * @return this builder
         */
        public Builder abortOn(List<Class<? extends Throwable>> types) {
            this.abortOn = copyTypes(types, "abortOn");
            return this;
        }

        /**
         * Sets the error types never to retry, replacing any set before. They win over
         * the types to retry.
         * @param types the non-retryable types, subclasses included
         * @return this builder
         */
        @SafeVarargs
        @SuppressWarnings("varargs")
        public final Builder abortOn(Class<? extends Throwable>... types) {
            return abortOn(Arrays.asList(types));
        }

        /**
         * Sets a further condition an error must meet to be retried, on top of the types.
         * @param predicate {@code true} for an error to retry; by default always
         * {@code true}
         * @return this builder
         */
        public Builder retryOnError(Predicate<Throwable> predicate) {
            this.retryOnError = requireNonNull(predicate, "retryOnError");
            return this;
        }

        /**
         * Sets which results call for another attempt: such a value is retried as a
         * retryable failure would be (backoff, budget and deadline apply), whatever
         * {@code retryOn}, {@code abortOn} and {@code retryOnError} say of exceptions;
         * when no attempt is left the call ends with status ERROR and a
         * {@link dev.resilience.core.RejectedResultException}, or goes to the fallbacks.
         * A predicate that throws ends the call at once with status ERROR and a
         * {@link dev.resilience.core.ResultPredicateException} caused by what it threw.
         * @param predicate {@code true} for a result to retry; by default always
         * {@code false}
         * @return this builder
         */
        public Builder retryOnResult(Predicate<@Nullable Object> predicate) {
            this.retryOnResult = requireNonNull(predicate, "retryOnResult");
            return this;
        }

        /**
         * Sets how long one attempt may run.
         * @param timeout a positive duration, or {@code null} for none
         * @return this builder
         */
        public Builder attemptTimeout(@Nullable Duration timeout) {
            this.attemptTimeout = requirePositive(timeout, "attemptTimeout");
            return this;
        }

        /**
         * Sets how long the whole call may run, all attempts and waits included.
         * @param duration a positive duration, or {@code null} for none
         * @return this builder
         */
        public Builder maxDuration(@Nullable Duration duration) {
            this.maxDuration = requirePositive(duration, "maxDuration");
            return this;
        }

        /**
         * Sets the budget every retry must be granted by; share one budget between all
         * calls of one retry instance.
         * @param budget the budget, or {@code null} for none
         * @return this builder
         */
        public Builder budget(@Nullable RetryBudget budget) {
            this.budget = budget;
            return this;
        }

        /**
         * Adds a listener told of every retry.
         * @param listener the listener
         * @return this builder
         * @deprecated since 0.1.0, for removal: add an
         * {@link dev.resilience.core.ExecutionListener} with
         * {@link dev.resilience.core.ResiliencePipeline.Builder#listener} and implement
         * its {@link dev.resilience.core.ExecutionListener#onRetry onRetry}, which
         * receives the same {@link RetryEvent} at the same moment
         */
        @Deprecated(since = "0.1.0", forRemoval = true)
        public Builder listener(RetryListener listener) {
            this.listeners.add(requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Sets the source of randomness for jitter, for example a seeded generator for a
         * deterministic simulation. It must be safe for the threads that share the
         * policy.
         * @param random the generator; by default one that is safe for concurrent use
         * @return this builder
         */
        public Builder random(RandomGenerator random) {
            this.random = requireNonNull(random, "random");
            return this;
        }

        /**
         * Builds the policy.
         * @return an immutable policy with the settings of this builder
         */
        public RetryPolicy build() {
            return new RetryPolicy(this);
        }

        private static <T> T requireNonNull(@Nullable T value, String setting) {
            if (value == null) {
                throw new IllegalArgumentException(setting + " must not be null");
            }
            return value;
        }

        private static @Nullable Duration requirePositive(@Nullable Duration duration, String setting) {
            if (duration != null && (duration.isNegative() || duration.isZero())) {
                throw new IllegalArgumentException(setting + " must be positive, was " + duration);
            }
            return duration;
        }

        private static List<Class<? extends Throwable>> copyTypes(List<Class<? extends Throwable>> types,
                String setting) {
            requireNonNull(types, setting);
            for (Class<? extends Throwable> type : types) {
                requireNonNull(type, setting + " element");
            }
            return List.copyOf(types);
        }

    }

}
