package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.Durations;
import dev.resilience.core.time.TimeSource;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;

/**
 * Resolves the {@link RetryPolicy} of a retry instance from, in order of precedence, its
 * {@code resilience.retry.instances.<name>} properties, its {@link Retryable} annotation,
 * the {@code resilience.retry.defaults} properties and the core's built-in defaults.
 *
 * <p>
 * Each instance with an enabled budget gets one {@link RetryBudget}, created at its first
 * resolution and shared by every later one. Thread-safe.
 */
public class RetryPolicyResolver {

    private static final String PREFIX = "resilience.retry";

    private final ResilienceProperties properties;

    private final TimeSource timeSource;

    private final Map<String, RetryBudget> budgets = new ConcurrentHashMap<>();

    /**
     * Creates a resolver.
     * @param properties the bound properties
     * @param timeSource the time source of the retry budgets
     */
    public RetryPolicyResolver(ResilienceProperties properties, TimeSource timeSource) {
        this.properties = properties;
        this.timeSource = timeSource;
    }

    /**
     * Resolves the policy of a retry instance.
     * @param name the instance's name
     * @param annotation the annotation on the method, or {@code null} for properties
     * only; {@code maxAttempts = 0}, {@code multiplier = 0} and empty strings or arrays
     * leave a setting unset
     * @return the policy, with the instance's shared budget if the budget is enabled
     * @throws InvalidResiliencePolicyException if a setting is invalid
     */
    public RetryPolicy resolve(String name, @Nullable Retryable annotation) {
        ResilienceProperties.Retry retry = this.properties.getRetry();
        SettingSources<RetrySettings> sources = new SettingSources<>(PREFIX, name, retry.getInstances().get(name),
                retry.getDefaults());
        Annotated annotated = (annotation != null) ? Annotated.of(name, annotation) : Annotated.NONE;
        RetryPolicy.Builder builder = RetryPolicy.builder();
        sources
            .pick("max-attempts", RetrySettings::getMaxAttempts, annotated.maxAttempts,
                    RetryPolicy.DEFAULT_MAX_ATTEMPTS)
            .applyTo(name, builder::maxAttempts, "Use 1 or more attempts; 1 means no retry.");
        builder.backoff(backoff(name, sources, annotated));
        builder.retryOn(required(sources.pick("retry-on", RetrySettings::getRetryOn, annotated.retryOn, List.of())));
        builder.abortOn(required(sources.pick("abort-on", RetrySettings::getAbortOn, annotated.abortOn, List.of())));
        sources.pick("attempt-timeout", RetrySettings::getAttemptTimeout, annotated.attemptTimeout, null)
            .applyTo(name, builder::attemptTimeout, "Use a positive duration such as \"2s\", or none.");
        sources.pick("max-duration", RetrySettings::getMaxDuration, annotated.maxDuration, null)
            .applyTo(name, builder::maxDuration, "Use a positive duration such as \"10s\", or none.");
        Boolean enabled = sources.pick("budget.enabled", (settings) -> settings.getBudget().getEnabled(), null, true)
            .value();
        if (Boolean.TRUE.equals(enabled)) {
            builder.budget(this.budgets.computeIfAbsent(name, (key) -> budget(key, sources)));
        }
        return builder.build();
    }

    private static Backoff backoff(String name, SettingSources<RetrySettings> sources, Annotated annotated) {
        Setting<Duration> delay = sources.pick("delay", RetrySettings::getDelay, annotated.delay,
                Backoff.DEFAULT_DELAY);
        Setting<Double> multiplier = sources.pick("multiplier", RetrySettings::getMultiplier, annotated.multiplier,
                Backoff.DEFAULT_MULTIPLIER);
        Setting<Duration> maxDelay = sources.pick("max-delay", RetrySettings::getMaxDelay, annotated.maxDelay,
                Backoff.DEFAULT_MAX_DELAY);
        Setting<Jitter> jitter = sources.pick("jitter", RetrySettings::getJitter, annotated.jitter,
                Backoff.DEFAULT_JITTER);
        Duration delayValue = required(delay);
        Duration maxDelayValue = required(maxDelay);
        delay.require(name, !delayValue.isNegative(), "the delay must not be negative", SettingSources.DURATION_FIX);
        maxDelay.require(name, maxDelayValue.compareTo(delayValue) >= 0,
                "the maximum delay must be >= the delay of " + delay.text() + " from " + delay.source(),
                "Raise the maximum delay or lower the delay.");
        try {
            return Backoff.of(delayValue, required(multiplier), maxDelayValue, required(jitter));
        }
        catch (IllegalArgumentException ex) {
            throw maxDelay.invalid(name, ex.getMessage(), SettingSources.DURATION_FIX, ex);
        }
    }

    private RetryBudget budget(String name, SettingSources<RetrySettings> sources) {
        Setting<Double> ratio = sources.pick("budget.ratio", (settings) -> settings.getBudget().getRatio(), null,
                RetryBudget.DEFAULT_RATIO);
        Setting<Integer> floor = sources.pick("budget.min-retries-per-second",
                (settings) -> settings.getBudget().getMinRetriesPerSecond(), null,
                RetryBudget.DEFAULT_MIN_RETRIES_PER_SECOND);
        Setting<Duration> window = sources.pick("budget.window", (settings) -> settings.getBudget().getWindow(), null,
                RetryBudget.DEFAULT_WINDOW);
        ratio.require(name, required(ratio) >= 0 && required(ratio) <= RetryBudget.MAX_RATIO,
                "the ratio must be between 0 and " + RetryBudget.MAX_RATIO,
                "Use a ratio such as 0.1 for one retry per ten calls.");
        floor.require(name, required(floor) >= 0, "the minimum retries per second must be >= 0",
                "Use 0 or more retries per second.");
        Duration windowValue = required(window);
        window.require(name,
                windowValue.compareTo(RetryBudget.MIN_WINDOW) >= 0
                        && windowValue.compareTo(RetryBudget.MAX_WINDOW) <= 0,
                "the window must be between " + Durations.format(RetryBudget.MIN_WINDOW) + " and "
                        + Durations.format(RetryBudget.MAX_WINDOW),
                "Use a window such as \"10s\".");
        return new RetryBudget(required(ratio), required(floor), windowValue, this.timeSource);
    }

    private static <T> T required(Setting<T> setting) {
        return Objects.requireNonNull(setting.value(), setting::source);
    }

    /**
     * The settings a {@link Retryable} sets, parsed and checked; {@code null} where it
     * leaves the setting unset.
     */
    private record Annotated(@Nullable Setting<Integer> maxAttempts, @Nullable Setting<Duration> delay,
            @Nullable Setting<Double> multiplier, @Nullable Setting<Duration> maxDelay,
            @Nullable Setting<Jitter> jitter, @Nullable Setting<List<Class<? extends Throwable>>> retryOn,
            @Nullable Setting<List<Class<? extends Throwable>>> abortOn, @Nullable Setting<Duration> attemptTimeout,
            @Nullable Setting<Duration> maxDuration) {

        static final Annotated NONE = new Annotated(null, null, null, null, null, null, null, null, null);

        static Annotated of(String name, Retryable retryable) {
            Setting<Integer> maxAttempts = null;
            if (retryable.maxAttempts() != 0) {
                maxAttempts = new Setting<>("@Retryable(maxAttempts)", retryable.maxAttempts());
                maxAttempts.require(name, retryable.maxAttempts() >= RetryPolicy.MIN_MAX_ATTEMPTS,
                        "maxAttempts must be >= " + RetryPolicy.MIN_MAX_ATTEMPTS,
                        "Use 1 or more attempts (1 means no retry), or 0 for the configured default.");
            }
            Setting<Double> multiplier = null;
            if (retryable.multiplier() != 0) {
                multiplier = new Setting<>("@Retryable(multiplier)", retryable.multiplier());
                multiplier.require(name,
                        retryable.multiplier() >= Backoff.MIN_MULTIPLIER && !Double.isInfinite(retryable.multiplier()),
                        "multiplier must be a finite number >= " + Backoff.MIN_MULTIPLIER,
                        "Use 1.0 for a fixed delay or more for an exponential one, or 0 for the configured default.");
            }
            return new Annotated(maxAttempts,
                    SettingSources.annotationDuration(name, "@Retryable(delay)", retryable.delay()), multiplier,
                    SettingSources.annotationDuration(name, "@Retryable(maxDelay)", retryable.maxDelay()),
                    jitter(name, retryable.jitter()),
                    SettingSources.annotationTypes("@Retryable(retryOn)", retryable.retryOn()),
                    SettingSources.annotationTypes("@Retryable(abortOn)", retryable.abortOn()),
                    SettingSources.annotationDuration(name, "@Retryable(attemptTimeout)", retryable.attemptTimeout()),
                    SettingSources.annotationDuration(name, "@Retryable(maxDuration)", retryable.maxDuration()));
        }

        private static @Nullable Setting<Jitter> jitter(String name, String text) {
            if (text.isEmpty()) {
                return null;
            }
            try {
                return new Setting<>("@Retryable(jitter)", Jitter.parse(text));
            }
            catch (IllegalArgumentException ex) {
                throw new InvalidResiliencePolicyException(name, "@Retryable(jitter)", text, ex.getMessage(),
                        "Use one of none, full, equal or decorrelated.", ex);
            }
        }
    }

}
