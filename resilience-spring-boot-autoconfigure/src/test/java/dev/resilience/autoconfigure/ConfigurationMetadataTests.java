package dev.resilience.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.redis.RedisDeadLetterStore;
import dev.resilience.redis.RedisIdempotencyStore;
import dev.resilience.redis.RedisRateLimiterStore;
import dev.resilience.registry.PolicyResolver;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.Ordered;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

class ConfigurationMetadataTests {

    private final JsonNode metadata = read();

    @Test
    void everyPropertyHasADescription() {
        assertThat(properties()).isNotEmpty()
            .allSatisfy((name, property) -> assertThat(property.path("description").asString()).as(name).isNotBlank());
    }

    @Test
    void everyBulkheadAndRateLimiterDefaultDocumentsItsValue() {
        Map<String, JsonNode> defaults = new LinkedHashMap<>(properties());
        defaults.keySet()
            .removeIf((name) -> !name.startsWith("resilience.bulkhead.defaults.")
                    && !name.startsWith("resilience.rate-limiter.defaults."));
        assertThat(defaults).hasSize(11)
            .allSatisfy((name, property) -> assertThat(property.has("defaultValue")).as(name).isTrue());
    }

    @Test
    void everyOverridableDefaultExceptTheOptionalDurationsDocumentsItsValue() {
        Map<String, JsonNode> defaults = new LinkedHashMap<>(properties());
        defaults.keySet()
            .removeIf((name) -> !name.startsWith("resilience.retry.defaults.")
                    && !name.startsWith("resilience.circuit-breaker.defaults."));
        assertThat(defaults).hasSize(25)
            .allSatisfy((name, property) -> assertThat(property.has("defaultValue")).as(name)
                .isEqualTo(!name.endsWith(".attempt-timeout") && !name.endsWith(".max-duration")));
    }

    @Test
    void documentedDefaultsEqualTheCoreConstants() {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("resilience.interceptor-order", Ordered.LOWEST_PRECEDENCE - 1);
        expected.put("resilience.retry.defaults.max-attempts", RetryPolicy.DEFAULT_MAX_ATTEMPTS);
        expected.put("resilience.retry.defaults.delay", Backoff.DEFAULT_DELAY);
        expected.put("resilience.retry.defaults.multiplier", Backoff.DEFAULT_MULTIPLIER);
        expected.put("resilience.retry.defaults.max-delay", Backoff.DEFAULT_MAX_DELAY);
        expected.put("resilience.retry.defaults.jitter", Backoff.DEFAULT_JITTER.name().toLowerCase(Locale.ROOT));
        expected.put("resilience.retry.defaults.budget.enabled", true);
        expected.put("resilience.retry.defaults.budget.ratio", RetryBudget.DEFAULT_RATIO);
        expected.put("resilience.retry.defaults.budget.min-retries-per-second",
                RetryBudget.DEFAULT_MIN_RETRIES_PER_SECOND);
        expected.put("resilience.retry.defaults.budget.window", RetryBudget.DEFAULT_WINDOW);
        expected.put("resilience.circuit-breaker.defaults.sliding-window-type",
                CircuitBreakerConfig.DEFAULT_SLIDING_WINDOW_TYPE.name().toLowerCase(Locale.ROOT));
        expected.put("resilience.circuit-breaker.defaults.sliding-window-size",
                CircuitBreakerConfig.DEFAULT_SLIDING_WINDOW_SIZE);
        expected.put("resilience.circuit-breaker.defaults.minimum-calls", CircuitBreakerConfig.DEFAULT_MINIMUM_CALLS);
        expected.put("resilience.circuit-breaker.defaults.failure-rate-threshold",
                (double) CircuitBreakerConfig.DEFAULT_FAILURE_RATE_THRESHOLD);
        expected.put("resilience.circuit-breaker.defaults.slow-call-duration",
                CircuitBreakerConfig.DEFAULT_SLOW_CALL_DURATION);
        expected.put("resilience.circuit-breaker.defaults.slow-call-rate-threshold",
                (double) CircuitBreakerConfig.DEFAULT_SLOW_CALL_RATE_THRESHOLD);
        expected.put("resilience.circuit-breaker.defaults.wait-in-open", CircuitBreakerConfig.DEFAULT_WAIT_IN_OPEN);
        expected.put("resilience.circuit-breaker.defaults.half-open-calls",
                CircuitBreakerConfig.DEFAULT_HALF_OPEN_CALLS);
        expected.put("resilience.circuit-breaker.defaults.max-wait-in-half-open",
                CircuitBreakerConfig.DEFAULT_MAX_WAIT_IN_HALF_OPEN);
        expected.put("resilience.circuit-breaker.defaults.automatic-transition-to-half-open",
                CircuitBreakerConfig.DEFAULT_AUTOMATIC_TRANSITION_TO_HALF_OPEN);
        expected.put("resilience.bulkhead.defaults.type", BulkheadConfig.DEFAULT_TYPE.name().toLowerCase(Locale.ROOT));
        expected.put("resilience.bulkhead.defaults.max-concurrent-calls", BulkheadConfig.DEFAULT_MAX_CONCURRENT_CALLS);
        expected.put("resilience.bulkhead.defaults.max-wait", BulkheadConfig.DEFAULT_MAX_WAIT);
        expected.put("resilience.bulkhead.defaults.min-limit", BulkheadConfig.DEFAULT_MIN_LIMIT);
        expected.put("resilience.bulkhead.defaults.max-limit", BulkheadConfig.DEFAULT_MAX_LIMIT);
        expected.put("resilience.bulkhead.defaults.algorithm",
                BulkheadConfig.DEFAULT_ALGORITHM.name().toLowerCase(Locale.ROOT));
        expected.put("resilience.bulkhead.defaults.latency-threshold", BulkheadConfig.DEFAULT_LATENCY_THRESHOLD);
        expected.put("resilience.rate-limiter.defaults.limit", RateLimiterConfig.DEFAULT_LIMIT);
        expected.put("resilience.rate-limiter.defaults.period", RateLimiterConfig.DEFAULT_PERIOD);
        expected.put("resilience.rate-limiter.defaults.timeout", RateLimiterConfig.DEFAULT_TIMEOUT);
        expected.put("resilience.rate-limiter.defaults.store", "memory");
        expected.put("resilience.rate-limiter.redis.store-timeout", RedisRateLimiterStore.DEFAULT_TIMEOUT);
        expected.put("resilience.rate-limiter.redis.on-store-error", "local");
        expected.put("resilience.time-limiter.defaults.timeout", PolicyResolver.DEFAULT_TIME_LIMIT);
        expected.put("resilience.idempotency.ttl", IdempotencyPolicy.DEFAULT_TTL);
        expected.put("resilience.idempotency.in-progress-ttl", IdempotencyPolicy.DEFAULT_IN_PROGRESS_TTL);
        expected.put("resilience.idempotency.max-entries", InMemoryIdempotencyStore.DEFAULT_MAX_ENTRIES);
        expected.put("resilience.idempotency.store-timeout", RedisIdempotencyStore.DEFAULT_TIMEOUT);
        expected.put("resilience.dead-letter.capacity", InMemoryDeadLetterStore.DEFAULT_CAPACITY);
        expected.put("resilience.http-client.retry", ResilienceProperties.HttpClient.DEFAULT_RETRY);
        expected.put("resilience.http-client.max-hosts", ResilienceProperties.HttpClient.DEFAULT_MAX_HOSTS);
        expected.put("resilience.http-client.max-retry-after", ResilienceProperties.HttpClient.DEFAULT_MAX_RETRY_AFTER);
        expected.put("resilience.dead-letter.store-timeout", RedisDeadLetterStore.DEFAULT_TIMEOUT);
        expected.put("resilience.hedging.defaults.delay", HedgingPolicy.DEFAULT_DELAY);
        expected.put("resilience.hedging.defaults.max-hedges", HedgingPolicy.DEFAULT_MAX_HEDGES);
        Map<String, JsonNode> properties = properties();
        expected.forEach(
                (name, value) -> assertThat(documentedDefault(properties.get(name).get("defaultValue"), value)).as(name)
                    .isEqualTo(value));
    }

    @Test
    void enumeratedSettingsHintTheirValues() {
        Map<String, String> hints = new LinkedHashMap<>();
        for (JsonNode hint : this.metadata.get("hints")) {
            if (!hint.has("values")) {
                continue;
            }
            StringBuilder values = new StringBuilder();
            hint.get("values").forEach((value) -> values.append(value.get("value").asString()).append(' '));
            hints.put(hint.get("name").asString(), values.toString().trim());
        }
        assertThat(hints).containsEntry("resilience.retry.defaults.jitter", "none full equal decorrelated")
            .containsEntry("resilience.circuit-breaker.defaults.sliding-window-type", "count time")
            .containsEntry("resilience.bulkhead.defaults.type", "fixed adaptive")
            .containsEntry("resilience.bulkhead.defaults.algorithm", "gradient aimd")
            .containsEntry("resilience.rate-limiter.defaults.store", "memory redis")
            .containsEntry("resilience.rate-limiter.redis.on-store-error", "local reject")
            .containsEntry("resilience.idempotency.store", "memory redis")
            .containsEntry("resilience.dead-letter.store", "memory redis none");
    }

    private Map<String, JsonNode> properties() {
        Map<String, JsonNode> properties = new LinkedHashMap<>();
        for (JsonNode property : this.metadata.get("properties")) {
            String name = property.get("name").asString();
            if (name.startsWith("resilience.")) {
                properties.put(name, property);
            }
        }
        return properties;
    }

    private static Object documentedDefault(JsonNode node, Object expected) {
        if (expected instanceof Duration) {
            return DurationStyle.detectAndParse(node.asString());
        }
        if (expected instanceof Integer) {
            return node.asInt();
        }
        if (expected instanceof Double) {
            return node.asDouble();
        }
        if (expected instanceof Boolean) {
            return node.asBoolean();
        }
        return node.asString();
    }

    private static JsonNode read() {
        try (InputStream input = new ClassPathResource("META-INF/spring-configuration-metadata.json")
            .getInputStream()) {
            return JsonMapper.builder().build().readTree(input);
        }
        catch (IOException ex) {
            throw new IllegalStateException("The configuration processor's metadata is missing", ex);
        }
    }

}
