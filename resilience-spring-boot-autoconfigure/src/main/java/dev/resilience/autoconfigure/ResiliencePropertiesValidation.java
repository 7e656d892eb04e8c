package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import dev.resilience.aop.IdempotencyFingerprints;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.SlidingWindowType;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.Durations;
import org.jspecify.annotations.Nullable;

import org.springframework.validation.Errors;

/**
 * The range checks behind {@link ResilienceProperties#validate}: one rejection per
 * out-of-range value, on the property's path relative to {@code resilience}, with the
 * valid range as message. The limits are the core builders' public constants, so that a
 * property and the builder it feeds accept the same values.
 */
final class ResiliencePropertiesValidation {

    private static final String PERCENT_RULE = "must be in (0, " + CircuitBreakerConfig.MAX_RATE_THRESHOLD + "]";

    private static final long MIN_ARGUMENT_SIZE = 64;

    private static final Pattern QUALIFIED_NAME = Pattern.compile(
            "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*");

    private final ResilienceProperties properties;

    private final Errors errors;

    ResiliencePropertiesValidation(ResilienceProperties properties, Errors errors) {
        this.properties = properties;
        this.errors = errors;
    }

    void validate() {
        ResilienceProperties.Retry retry = this.properties.getRetry();
        validateRetry("retry.defaults", retry.getDefaults());
        retry.getInstances().forEach((name, settings) -> validateRetry("retry.instances[" + name + "]", settings));
        ResilienceProperties.CircuitBreaker breaker = this.properties.getCircuitBreaker();
        SlidingWindowType defaultType = orElse(breaker.getDefaults().getSlidingWindowType(),
                CircuitBreakerConfig.DEFAULT_SLIDING_WINDOW_TYPE);
        validateCircuitBreaker("circuit-breaker.defaults", breaker.getDefaults(), defaultType);
        breaker.getInstances()
            .forEach((name, settings) -> validateCircuitBreaker("circuit-breaker.instances[" + name + "]", settings,
                    orElse(settings.getSlidingWindowType(), defaultType)));
        ResilienceProperties.Bulkhead bulkhead = this.properties.getBulkhead();
        validateBulkhead("bulkhead.defaults", bulkhead.getDefaults());
        bulkhead.getInstances()
            .forEach((name, settings) -> validateBulkhead("bulkhead.instances[" + name + "]", settings));
        ResilienceProperties.RateLimiter rateLimiter = this.properties.getRateLimiter();
        validateRateLimiter("rate-limiter.defaults", rateLimiter.getDefaults());
        rateLimiter.getInstances()
            .forEach((name, settings) -> validateRateLimiter("rate-limiter.instances[" + name + "]", settings));
        check("rate-limiter.redis.store-timeout", rateLimiter.getRedis().getStoreTimeout(),
                ResiliencePropertiesValidation::isPositive, "must be positive");
        check("rate-limiter.redis.key-prefix", rateLimiter.getRedis().getKeyPrefix(), (prefix) -> !prefix.isBlank(),
                "must not be blank (unset it for the default)");
        ResilienceProperties.TimeLimiter timeLimiter = this.properties.getTimeLimiter();
        check("time-limiter.defaults.timeout", timeLimiter.getDefaults().getTimeout(),
                ResiliencePropertiesValidation::isPositive, "must be positive");
        timeLimiter.getInstances()
            .forEach((name, settings) -> check("time-limiter.instances[" + name + "].timeout", settings.getTimeout(),
                    ResiliencePropertiesValidation::isPositive, "must be positive"));
        ResilienceProperties.Hedging hedging = this.properties.getHedging();
        validateHedging("hedging.defaults", hedging.getDefaults());
        hedging.getInstances()
            .forEach((name, settings) -> validateHedging("hedging.instances[" + name + "]", settings));
        ResilienceProperties.Idempotency idempotency = this.properties.getIdempotency();
        check("idempotency.ttl", idempotency.getTtl(), ResiliencePropertiesValidation::isPositive, "must be positive");
        check("idempotency.in-progress-ttl", idempotency.getInProgressTtl(), ResiliencePropertiesValidation::isPositive,
                "must be positive");
        check("idempotency.max-entries", idempotency.getMaxEntries(), (entries) -> entries >= 1, "must be >= 1");
        check("fallback.last-good.max-entries", this.properties.getFallback().getLastGood().getMaxEntries(),
                (entries) -> entries >= 1, "must be >= 1");
        check("fallback.last-good.store-timeout", this.properties.getFallback().getLastGood().getStoreTimeout(),
                ResiliencePropertiesValidation::isPositive, "must be positive");
        check("idempotency.store-timeout", idempotency.getStoreTimeout(), ResiliencePropertiesValidation::isPositive,
                "must be positive");
        check("idempotency.max-result-size", idempotency.getMaxResultSize(), (size) -> size.toBytes() > 0,
                "must be positive");
        List<String> allowedTypes = idempotency.getAllowedTypes();
        for (int i = 0; i < allowedTypes.size(); i++) {
            check("idempotency.allowed-types[" + i + "]", allowedTypes.get(i),
                    (name) -> QUALIFIED_NAME.matcher(name).matches(),
                    "must be a class name (com.example.Receipt) or a package name (com.example.orders)");
        }
        checkSecret(idempotency.getFingerprintSecret());
        ResilienceProperties.DeadLetter deadLetter = this.properties.getDeadLetter();
        check("dead-letter.capacity", deadLetter.getCapacity(), (capacity) -> capacity >= 1, "must be >= 1");
        check("dead-letter.store-timeout", deadLetter.getStoreTimeout(), ResiliencePropertiesValidation::isPositive,
                "must be positive");
        check("dead-letter.max-argument-size", deadLetter.getMaxArgumentSize(),
                (size) -> size.toBytes() >= MIN_ARGUMENT_SIZE && size.toBytes() <= Integer.MAX_VALUE,
                "must be between " + MIN_ARGUMENT_SIZE + "B and " + Integer.MAX_VALUE + "B");
        check("dead-letter.ttl", deadLetter.getTtl(), ResiliencePropertiesValidation::isPositive, "must be positive");
        check("logs.interval", this.properties.getLogs().getInterval(), (interval) -> !interval.isNegative(),
                "must be >= 0");
        check("dead-letter.redrive-lease", deadLetter.getRedriveLease(), (lease) -> lease.toMillis() >= 1,
                "must be at least 1ms");
        check("dead-letter.key-prefix", deadLetter.getKeyPrefix(),
                (prefix) -> !prefix.isBlank() && !prefix.startsWith("}"),
                "must not be blank (unset it for the default) nor start with '}' (an empty Redis Cluster hash tag)");
        ResilienceProperties.HttpClient httpClient = this.properties.getHttpClient();
        check("http-client.retry", httpClient.getRetry(), (name) -> !name.isBlank(),
                "must name a retry instance (not be blank)");
        check("http-client.max-hosts", httpClient.getMaxHosts(), (hosts) -> hosts >= 1, "must be >= 1");
        check("http-client.max-retry-after", httpClient.getMaxRetryAfter(), (wait) -> !wait.isNegative(),
                "must be >= 0");
        validateChaos(this.properties.getChaos());
    }

    private void validateChaos(ResilienceProperties.Chaos chaos) {
        if (!chaos.isEnabled()) {
            return;
        }
        chaos.getInstances().forEach((name, instance) -> {
            String path = "chaos.instances[" + name + "]";
            check(path + ".failure-rate", instance.getFailureRate(), (rate) -> rate >= 0 && rate <= 1,
                    "must be between 0 and 1");
            check(path + ".latency", instance.getLatency(), (latency) -> !latency.isNegative(), "must be >= 0");
            String problem = ChaosExceptions.problem(instance.getException());
            if (problem != null) {
                this.errors.rejectValue(path + ".exception", "invalid", problem);
            }
        });
    }

    private void validateRetry(String path, RetrySettings settings) {
        check(path + ".max-attempts", settings.getMaxAttempts(), (attempts) -> attempts >= RetryPolicy.MIN_MAX_ATTEMPTS,
                "must be >= " + RetryPolicy.MIN_MAX_ATTEMPTS + " (all attempts, the first included)");
        check(path + ".delay", settings.getDelay(), (delay) -> !delay.isNegative(), "must be >= 0");
        check(path + ".multiplier", settings.getMultiplier(),
                (multiplier) -> multiplier >= Backoff.MIN_MULTIPLIER && multiplier < Double.POSITIVE_INFINITY,
                "must be a finite number >= " + Backoff.MIN_MULTIPLIER);
        Duration delay = settings.getDelay();
        if (delay != null) {
            check(path + ".max-delay", settings.getMaxDelay(), (maxDelay) -> maxDelay.compareTo(delay) >= 0,
                    "must be >= delay (" + Durations.format(delay) + ")");
        }
        else {
            check(path + ".max-delay", settings.getMaxDelay(), (maxDelay) -> !maxDelay.isNegative(), "must be >= 0");
        }
        checkThrowables(path + ".retry-on", settings.getRetryOn());
        checkThrowables(path + ".abort-on", settings.getAbortOn());
        check(path + ".attempt-timeout", settings.getAttemptTimeout(), ResiliencePropertiesValidation::isPositive,
                "must be positive");
        check(path + ".max-duration", settings.getMaxDuration(), ResiliencePropertiesValidation::isPositive,
                "must be positive");
        RetrySettings.Budget budget = settings.getBudget();
        check(path + ".budget.ratio", budget.getRatio(), (ratio) -> ratio >= 0 && ratio <= RetryBudget.MAX_RATIO,
                "must be between 0 and " + RetryBudget.MAX_RATIO);
        check(path + ".budget.min-retries-per-second", budget.getMinRetriesPerSecond(), (floor) -> floor >= 0,
                "must be >= 0");
        check(path + ".budget.window", budget.getWindow(),
                (window) -> window.compareTo(RetryBudget.MIN_WINDOW) >= 0
                        && window.compareTo(RetryBudget.MAX_WINDOW) <= 0,
                "must be between " + Durations.format(RetryBudget.MIN_WINDOW) + " and "
                        + Durations.format(RetryBudget.MAX_WINDOW));
    }

    private void validateCircuitBreaker(String path, CircuitBreakerSettings settings, SlidingWindowType type) {
        int maxSize = (type == SlidingWindowType.COUNT) ? CircuitBreakerConfig.MAX_COUNT_WINDOW_SIZE
                : CircuitBreakerConfig.MAX_TIME_WINDOW_SECONDS;
        String unit = (type == SlidingWindowType.COUNT) ? " calls for a count window" : " seconds for a time window";
        check(path + ".sliding-window-size", settings.getSlidingWindowSize(), (size) -> size >= 1 && size <= maxSize,
                "must be between 1 and " + maxSize + unit);
        check(path + ".minimum-calls", settings.getMinimumCalls(), (calls) -> calls >= 1, "must be >= 1");
        check(path + ".failure-rate-threshold", settings.getFailureRateThreshold(),
                ResiliencePropertiesValidation::isPercent, PERCENT_RULE);
        check(path + ".slow-call-duration", settings.getSlowCallDuration(), ResiliencePropertiesValidation::isPositive,
                "must be positive");
        check(path + ".slow-call-rate-threshold", settings.getSlowCallRateThreshold(),
                ResiliencePropertiesValidation::isPercent, PERCENT_RULE);
        check(path + ".wait-in-open", settings.getWaitInOpen(), ResiliencePropertiesValidation::isPositive,
                "must be positive");
        check(path + ".half-open-calls", settings.getHalfOpenCalls(),
                (calls) -> calls >= 1 && calls <= CircuitBreakerConfig.MAX_HALF_OPEN_CALLS,
                "must be between 1 and " + CircuitBreakerConfig.MAX_HALF_OPEN_CALLS);
        check(path + ".max-wait-in-half-open", settings.getMaxWaitInHalfOpen(),
                ResiliencePropertiesValidation::isPositive, "must be positive");
        checkThrowables(path + ".record-on", settings.getRecordOn());
        checkThrowables(path + ".ignore-on", settings.getIgnoreOn());
    }

    private void validateBulkhead(String path, BulkheadSettings settings) {
        String range = "must be between " + BulkheadConfig.LOWEST_LIMIT + " and " + BulkheadConfig.HIGHEST_LIMIT;
        check(path + ".max-concurrent-calls", settings.getMaxConcurrentCalls(), ResiliencePropertiesValidation::isLimit,
                range);
        check(path + ".max-wait", settings.getMaxWait(),
                (wait) -> !wait.isNegative() && wait.compareTo(BulkheadConfig.MAX_MAX_WAIT) <= 0,
                "must be between 0 and " + Durations.format(BulkheadConfig.MAX_MAX_WAIT));
        check(path + ".min-limit", settings.getMinLimit(), ResiliencePropertiesValidation::isLimit, range);
        check(path + ".max-limit", settings.getMaxLimit(), ResiliencePropertiesValidation::isLimit, range);
        check(path + ".latency-threshold", settings.getLatencyThreshold(),
                (threshold) -> isPositive(threshold) && threshold.compareTo(BulkheadConfig.MAX_LATENCY_THRESHOLD) <= 0,
                "must be positive and at most " + Durations.format(BulkheadConfig.MAX_LATENCY_THRESHOLD));
        Integer minLimit = settings.getMinLimit();
        if (minLimit != null && isLimit(minLimit)) {
            check(path + ".max-limit", settings.getMaxLimit(), (maxLimit) -> maxLimit >= minLimit,
                    "must be >= min-limit (" + minLimit + ")");
        }
    }

    private void validateRateLimiter(String path, RateLimiterSettings settings) {
        check(path + ".limit", settings.getLimit(), (limit) -> limit >= 1 && limit <= RateLimiterConfig.MAX_LIMIT,
                "must be between 1 and " + RateLimiterConfig.MAX_LIMIT);
        check(path + ".period", settings.getPeriod(),
                (period) -> period.compareTo(RateLimiterConfig.MIN_PERIOD) >= 0
                        && period.compareTo(RateLimiterConfig.MAX_PERIOD) <= 0,
                "must be between " + Durations.format(RateLimiterConfig.MIN_PERIOD) + " and "
                        + Durations.format(RateLimiterConfig.MAX_PERIOD));
        check(path + ".timeout", settings.getTimeout(),
                (timeout) -> !timeout.isNegative() && timeout.compareTo(RateLimiterConfig.MAX_TIMEOUT) <= 0,
                "must be between 0 and " + Durations.format(RateLimiterConfig.MAX_TIMEOUT));
    }

    private void validateHedging(String path, HedgingSettings settings) {
        check(path + ".delay", settings.getDelay(),
                (delay) -> isPositive(delay) && delay.compareTo(HedgingPolicy.MAX_DELAY) <= 0,
                "must be positive and at most " + Durations.format(HedgingPolicy.MAX_DELAY));
        check(path + ".max-hedges", settings.getMaxHedges(),
                (hedges) -> hedges >= HedgingPolicy.LOWEST_MAX_HEDGES && hedges <= HedgingPolicy.HIGHEST_MAX_HEDGES,
                "must be between " + HedgingPolicy.LOWEST_MAX_HEDGES + " and " + HedgingPolicy.HIGHEST_MAX_HEDGES);
    }

    private static boolean isLimit(int limit) {
        return limit >= BulkheadConfig.LOWEST_LIMIT && limit <= BulkheadConfig.HIGHEST_LIMIT;
    }

    private void checkThrowables(String path, @Nullable List<Class<? extends Throwable>> types) {
        if (types == null) {
            return;
        }
        for (int i = 0; i < types.size(); i++) {
            Class<?> type = types.get(i);
            check(path + "[" + i + "]", type, Throwable.class::isAssignableFrom,
                    "must be a subclass of java.lang.Throwable");
        }
    }

    /**
     * Rejects a short fingerprint secret without a field error, whose report would show
     * the secret.
     */
    private void checkSecret(@Nullable String secret) {
        if (secret != null && !secret.isEmpty() && secret.length() < IdempotencyFingerprints.MIN_SECRET_LENGTH) {
            this.errors.reject("tooShort", IdempotencyFingerprintSecret.PROPERTY + " must be at least "
                    + IdempotencyFingerprints.MIN_SECRET_LENGTH + " characters long; it is " + secret.length());
        }
    }

    private <T> void check(String path, @Nullable T value, Predicate<T> valid, String rule) {
        if (value != null && !valid.test(value)) {
            this.errors.rejectValue(path, "outOfRange", rule);
        }
    }

    private static boolean isPositive(Duration duration) {
        return !duration.isNegative() && !duration.isZero();
    }

    private static boolean isPercent(Float value) {
        return value > 0 && value <= CircuitBreakerConfig.MAX_RATE_THRESHOLD;
    }

    private static <T> T orElse(@Nullable T value, T fallback) {
        return (value != null) ? value : fallback;
    }

}
