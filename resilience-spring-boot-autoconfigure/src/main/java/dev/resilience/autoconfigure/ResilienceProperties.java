package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.resilience.core.deadletter.DeadLetterText;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.lastgood.InMemoryLastGoodStore;
import dev.resilience.logging.ExecutionLogListener;
import dev.resilience.redrive.DeadLetterRedrive;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * The settings under {@code resilience.}: retries, circuit breakers, bulkheads, rate
 * limiters, hedging, idempotency, dead letters, outgoing HTTP calls, chaos, where
 * asynchronous work runs, the logs of calls and the interceptor's order. Unknown keys
 * fail the binding, and so does an out-of-range value: this class validates itself once
 * bound, naming the property and the valid range.
 *
 * <p>
 * Longer than 400 lines because it is the one place that binds {@code resilience.*}:
 * every property has a documented field (its description in the IDE), a getter and a
 * setter, as Spring Boot's own properties classes do.
 */
@ConfigurationProperties(prefix = "resilience", ignoreUnknownFields = false)
public class ResilienceProperties implements Validator {

    /**
     * Order of the resilience interceptor among the advisors of a bean; the default runs
     * it just outside @Transactional, so that every attempt gets its own transaction.
     */
    private int interceptorOrder = Ordered.LOWEST_PRECEDENCE - 1;

    /**
     * Where the work that follows a timer or an asynchronous completion runs.
     */
    private final Async async = new Async();

    /**
     * Retry settings.
     */
    private final Retry retry = new Retry();

    /**
     * Circuit breaker settings.
     */
    private final CircuitBreaker circuitBreaker = new CircuitBreaker();

    /**
     * Bulkhead settings.
     */
    private final Bulkhead bulkhead = new Bulkhead();

    /**
     * Rate limiter settings.
     */
    private final RateLimiter rateLimiter = new RateLimiter();

    /**
     * Time limiter settings.
     */
    private final TimeLimiter timeLimiter = new TimeLimiter();

    /**
     * Idempotency settings.
     */
    private final Idempotency idempotency = new Idempotency();

    /**
     * Dead letter settings.
     */
    private final DeadLetter deadLetter = new DeadLetter();

    /**
     * Settings of the resilience of outgoing calls made with RestClient, RestTemplate and
     * WebClient.
     */
    private final HttpClient httpClient = new HttpClient();

    /**
     * Fault injection into the attempts of protected operations.
     */
    private final Chaos chaos = new Chaos();

    /**
     * Settings of the lines logged for retries, fallbacks and unsuccessful calls.
     */
    private final Logs logs = new Logs();

    /**
     * Settings of the fallbacks: where last good values are kept.
     */
    private final Fallback fallback = new Fallback();

    /**
     * Hedging settings.
     */
    private final Hedging hedging = new Hedging();

    /**
     * Returns the order of the resilience interceptor.
     * @return the order
     */
    public int getInterceptorOrder() {
        return this.interceptorOrder;
    }

    /**
     * Sets the order of the resilience interceptor.
     * @param interceptorOrder the order
     */
    public void setInterceptorOrder(int interceptorOrder) {
        this.interceptorOrder = interceptorOrder;
    }

    /**
     * Returns the settings of asynchronous work.
     * @return the settings under {@code resilience.async}
     */
    public Async getAsync() {
        return this.async;
    }

    /**
     * Returns the retry settings.
     * @return the settings under {@code resilience.retry}
     */
    public Retry getRetry() {
        return this.retry;
    }

    /**
     * Returns the circuit breaker settings.
     * @return the settings under {@code resilience.circuit-breaker}
     */
    public CircuitBreaker getCircuitBreaker() {
        return this.circuitBreaker;
    }

    /**
     * Returns the bulkhead settings.
     * @return the settings under {@code resilience.bulkhead}
     */
    public Bulkhead getBulkhead() {
        return this.bulkhead;
    }

    /**
     * Returns the rate limiter settings.
     * @return the settings under {@code resilience.rate-limiter}
     */
    public RateLimiter getRateLimiter() {
        return this.rateLimiter;
    }

    /**
     * Returns the time limiter settings.
     * @return the settings under {@code resilience.time-limiter}
     */
    public TimeLimiter getTimeLimiter() {
        return this.timeLimiter;
    }

    /**
     * Returns the idempotency settings.
     * @return the settings under {@code resilience.idempotency}
     */
    public Idempotency getIdempotency() {
        return this.idempotency;
    }

    /**
     * Returns the dead letter settings.
     * @return the settings under {@code resilience.dead-letter}
     */
    public DeadLetter getDeadLetter() {
        return this.deadLetter;
    }

    /**
     * Returns the settings of outgoing HTTP calls.
     * @return the settings under {@code resilience.http-client}
     */
    public HttpClient getHttpClient() {
        return this.httpClient;
    }

    /**
     * Returns the fault injection settings.
     * @return the settings under {@code resilience.chaos}
     */
    public Chaos getChaos() {
        return this.chaos;
    }

    /**
     * Returns the settings of the logs of calls.
     * @return the settings under {@code resilience.logs}
     */
    public Logs getLogs() {
        return this.logs;
    }

    /**
     * Returns the settings of the fallbacks.
     * @return the fallback settings
     */
    public Fallback getFallback() {
        return this.fallback;
    }

    /**
     * Returns the hedging settings.
     * @return the settings under {@code resilience.hedging}
     */
    public Hedging getHedging() {
        return this.hedging;
    }

    /**
     * Tells whether this validator validates instances of a class.
     * @param type the class of the object to validate
     * @return {@code true} for {@link ResilienceProperties} only
     */
    @Override
    public boolean supports(Class<?> type) {
        return ResilienceProperties.class == type;
    }

    /**
     * Rejects every out-of-range value, naming its property relative to
     * {@code resilience} (for example {@code retry.instances[payment].max-attempts}) and
     * the valid range.
     * @param target the bound properties
     * @param errors where the rejections are collected
     */
    @Override
    public void validate(Object target, Errors errors) {
        new ResiliencePropertiesValidation((ResilienceProperties) target, errors).validate();
    }

    /**
     * Settings of where asynchronous work runs.
     */
    public static class Async {

        /**
         * Name of the Executor bean that runs what follows a timer or the completion of
         * an asynchronous attempt: the next asynchronous attempt, fallbacks, idempotency
         * settlements, dead-letter writes and listeners. Unset: Spring Boot's
         * 'applicationTaskExecutor' (virtual threads with
         * spring.threads.virtual.enabled), 'taskExecutor' or the application's only
         * TaskExecutor, else a pool of daemon threads; with a VirtualTimeSource bean, the
         * thread that advances its time.
         */
        private @Nullable String executor;

        /**
         * Returns the name of the executor bean.
         * @return the bean name, or {@code null} for the default
         */
        public @Nullable String getExecutor() {
            return this.executor;
        }

        /**
         * Sets the name of the executor bean.
         * @param executor the bean name
         */
        public void setExecutor(@Nullable String executor) {
            this.executor = executor;
        }

    }

    /**
     * Settings of retries: defaults, and per-instance overrides keyed by retry name.
     */
    public static class Retry {

        /**
         * Settings every retry instance starts from.
         */
        @NestedConfigurationProperty
        private final RetrySettings defaults = new RetrySettings();

        /**
         * Settings of individual retry instances, keyed by name; they override the
         * annotation and the defaults.
         */
        private final Map<String, RetrySettings> instances = new LinkedHashMap<>();

        /**
         * Returns the settings every retry instance starts from.
         * @return the defaults
         */
        public RetrySettings getDefaults() {
            return this.defaults;
        }

        /**
         * Returns the settings of individual instances.
         * @return the settings keyed by retry name, modifiable
         */
        public Map<String, RetrySettings> getInstances() {
            return this.instances;
        }

    }

    /**
     * Settings of circuit breakers: defaults, and per-instance overrides keyed by breaker
     * name.
     */
    public static class CircuitBreaker {

        /**
         * Settings every circuit breaker starts from.
         */
        @NestedConfigurationProperty
        private final CircuitBreakerSettings defaults = new CircuitBreakerSettings();

        /**
         * Settings of individual circuit breakers, keyed by name; they override the
         * annotation and the defaults.
         */
        private final Map<String, CircuitBreakerSettings> instances = new LinkedHashMap<>();

        /**
         * Returns the settings every breaker starts from.
         * @return the defaults
         */
        public CircuitBreakerSettings getDefaults() {
            return this.defaults;
        }

        /**
         * Returns the settings of individual breakers.
         * @return the settings keyed by breaker name, modifiable
         */
        public Map<String, CircuitBreakerSettings> getInstances() {
            return this.instances;
        }

    }

    /**
     * Settings of bulkheads: defaults, and per-instance overrides keyed by bulkhead name.
     */
    public static class Bulkhead {

        /**
         * Settings every bulkhead starts from.
         */
        @NestedConfigurationProperty
        private final BulkheadSettings defaults = new BulkheadSettings();

        /**
         * Settings of individual bulkheads, keyed by name; they override the annotation
         * and the defaults.
         */
        private final Map<String, BulkheadSettings> instances = new LinkedHashMap<>();

        /**
         * Returns the settings every bulkhead starts from.
         * @return the defaults
         */
        public BulkheadSettings getDefaults() {
            return this.defaults;
        }

        /**
         * Returns the settings of individual bulkheads.
         * @return the settings keyed by bulkhead name, modifiable
         */
        public Map<String, BulkheadSettings> getInstances() {
            return this.instances;
        }

    }

    /**
     * Settings of rate limiters: defaults, and per-instance overrides keyed by rate
     * limiter name.
     */
    public static class RateLimiter {

        /**
         * Settings every rate limiter starts from.
         */
        @NestedConfigurationProperty
        private final RateLimiterSettings defaults = new RateLimiterSettings();

        /**
         * Settings of individual rate limiters, keyed by name; they override the
         * annotation and the defaults.
         */
        private final Map<String, RateLimiterSettings> instances = new LinkedHashMap<>();

        /**
         * Settings of the Redis store of the rate limiters whose store is redis.
         */
        @NestedConfigurationProperty
        private final RateLimiterRedisSettings redis = new RateLimiterRedisSettings();

        /**
         * Returns the settings every rate limiter starts from.
         * @return the defaults
         */
        public RateLimiterSettings getDefaults() {
            return this.defaults;
        }

        /**
         * Returns the settings of the Redis store of rate limiters.
         * @return the Redis settings
         */
        public RateLimiterRedisSettings getRedis() {
            return this.redis;
        }

        /**
         * Returns the settings of individual rate limiters.
         * @return the settings keyed by rate limiter name, modifiable
         */
        public Map<String, RateLimiterSettings> getInstances() {
            return this.instances;
        }

    }

    /**
     * Settings of time limiters ({@code @TimeLimited}): defaults, and per-instance
     * overrides keyed by time limiter name.
     */
    public static class TimeLimiter {

        /**
         * Settings every time limiter starts from.
         */
        @NestedConfigurationProperty
        private final TimeLimiterSettings defaults = new TimeLimiterSettings();

        /**
         * Settings of individual time limiters, keyed by name; they override the
         * annotation and the defaults.
         */
        private final Map<String, TimeLimiterSettings> instances = new LinkedHashMap<>();

        /**
         * Returns the settings every time limiter starts from.
         * @return the defaults
         */
        public TimeLimiterSettings getDefaults() {
            return this.defaults;
        }

        /**
         * Returns the settings of individual time limiters.
         * @return the settings keyed by time limiter name, modifiable
         */
        public Map<String, TimeLimiterSettings> getInstances() {
            return this.instances;
        }

    }

    /**
     * Settings of idempotent calls and of their store.
     */
    public static class Idempotency {

        /**
         * Where idempotency claims and results are kept.
         */
        private Store store = Store.MEMORY;

        /**
         * How long a completed result is replayed.
         */
        private Duration ttl = IdempotencyPolicy.DEFAULT_TTL;

        /**
         * Lease of a running call; after it another caller may take the key over.
         */
        private Duration inProgressTtl = IdempotencyPolicy.DEFAULT_IN_PROGRESS_TTL;

        /**
         * Prefix of the keys written to an external store. Defaults to
         * "<spring.application.name>:idem:", or "idem:" without an application name, so
         * that applications sharing a Redis never see each other's entries.
         */
        private @Nullable String keyPrefix;

        /**
         * Classes (binary names) and packages (that package only) whose classes a replay
         * may read where a supertype of theirs from another package is declared. A replay
         * always reads the declared type and its subtypes in the declared type's package;
         * a stored class outside these is refused, never instantiated.
         */
        private List<String> allowedTypes = new ArrayList<>();

        /**
         * Largest result stored, as JSON, by either store. A larger result is not stored:
         * the caller gets it, and later calls with its key end with a "result
         * unavailable" error (409 over HTTP) without running the method again.
         */
        private DataSize maxResultSize = DataSize.ofMegabytes(1);

        /**
         * Secret that keys the HMAC fingerprints of idempotent calls, at least 32
         * characters, the same on every instance sharing the store. Required by every
         * store but the in-memory one, which makes a random one per start when unset.
         */
        private @Nullable String fingerprintSecret;

        /**
         * Maximum number of keys the in-memory store holds.
         */
        private int maxEntries = InMemoryIdempotencyStore.DEFAULT_MAX_ENTRIES;

        /**
         * Longest time a claim, completion or release waits for the Redis store; past it
         * the call fails closed as a store error and the method does not run. The
         * client's own command timeout bounds it too, when shorter.
         */
        private Duration storeTimeout = Duration.ofSeconds(2);

        /**
         * Returns the secret that keys the fingerprints.
         * @return the secret, or {@code null} when unset
         */
        public @Nullable String getFingerprintSecret() {
            return this.fingerprintSecret;
        }

        /**
         * Sets the secret that keys the fingerprints.
         * @param fingerprintSecret the secret
         */
        public void setFingerprintSecret(@Nullable String fingerprintSecret) {
            this.fingerprintSecret = fingerprintSecret;
        }

        /**
         * Returns the kind of store.
         * @return the store
         */
        public Store getStore() {
            return this.store;
        }

        /**
         * Sets the kind of store.
         * @param store the store
         */
        public void setStore(Store store) {
            this.store = store;
        }

        /**
         * Returns how long a completed result is replayed.
         * @return the time to live
         */
        public Duration getTtl() {
            return this.ttl;
        }

        /**
         * Sets how long a completed result is replayed.
         * @param ttl the time to live
         */
        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }

        /**
         * Returns the lease of a running call.
         * @return the in-progress time to live
         */
        public Duration getInProgressTtl() {
            return this.inProgressTtl;
        }

        /**
         * Sets the lease of a running call.
         * @param inProgressTtl the in-progress time to live
         */
        public void setInProgressTtl(Duration inProgressTtl) {
            this.inProgressTtl = inProgressTtl;
        }

        /**
         * Returns the prefix of the keys in an external store.
         * @return the prefix, or {@code null} for the application-scoped default
         */
        public @Nullable String getKeyPrefix() {
            return this.keyPrefix;
        }

        /**
         * Sets the prefix of the keys in an external store.
         * @param keyPrefix the prefix, or {@code null} for the application-scoped default
         */
        public void setKeyPrefix(@Nullable String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        /**
         * Returns the classes and packages a replay may read beyond the declared types'
         * packages.
         * @return class or package names
         */
        public List<String> getAllowedTypes() {
            return this.allowedTypes;
        }

        /**
         * Sets the classes and packages a replay may read beyond the declared types'
         * packages.
         * @param allowedTypes class or package names
         */
        public void setAllowedTypes(List<String> allowedTypes) {
            this.allowedTypes = allowedTypes;
        }

        /**
         * Returns the largest result stored.
         * @return the bound of a result's JSON
         */
        public DataSize getMaxResultSize() {
            return this.maxResultSize;
        }

        /**
         * Sets the largest result stored.
         * @param maxResultSize the bound of a result's JSON
         */
        public void setMaxResultSize(DataSize maxResultSize) {
            this.maxResultSize = maxResultSize;
        }

        /**
         * Returns the bound of the in-memory store.
         * @return the maximum number of keys
         */
        public int getMaxEntries() {
            return this.maxEntries;
        }

        /**
         * Sets the bound of the in-memory store.
         * @param maxEntries the maximum number of keys
         */
        public void setMaxEntries(int maxEntries) {
            this.maxEntries = maxEntries;
        }

        /**
         * Returns the longest time a call waits for the Redis store.
         * @return the store timeout
         */
        public Duration getStoreTimeout() {
            return this.storeTimeout;
        }

        /**
         * Sets the longest time a call waits for the Redis store.
         * @param storeTimeout the store timeout
         */
        public void setStoreTimeout(Duration storeTimeout) {
            this.storeTimeout = storeTimeout;
        }

        /**
         * The kinds of idempotency store.
         */
        public enum Store {

            /** A bounded, expiring store in the application's memory. */
            MEMORY,

            /**
             * A Redis store through Spring Data Redis, shared by every instance of the
             * application.
             */
            REDIS

        }

    }

    /**
     * Settings of the dead letters written when a retried call ends with its work undone.
     */
    public static class DeadLetter {

        /**
         * Where dead letters are written; none disables them.
         */
        private Store store = Store.MEMORY;

        /**
         * Maximum number of dead letters kept; the oldest are dropped first.
         */
        private int capacity = InMemoryDeadLetterStore.DEFAULT_CAPACITY;

        /**
         * Longest time a write or read of the Redis store waits for Redis; a write that
         * times out is logged and counted as lost, and the call's outcome stands.
         */
        private Duration storeTimeout = Duration.ofSeconds(2);

        /**
         * Maximum size of one argument's text, and of the error message, in a dead
         * letter, in UTF-8 bytes; a longer text keeps its first bytes, cut on a character
         * boundary, followed by "...[truncated <n> bytes]".
         */
        private DataSize maxArgumentSize = DataSize.ofBytes(DeadLetterText.DEFAULT_MAX_ARGUMENT_SIZE);

        /**
         * How long a dead letter is kept after it was written; older ones are gone from
         * both stores.
         */
        private Duration ttl = InMemoryDeadLetterStore.DEFAULT_TTL;

        /**
         * Longest time a re-drive's claim holds its dead letter when the re-drive never
         * ends (its instance died); afterwards the letter can be re-driven again. Make it
         * longer than the slowest re-driven call, retries included, or a second re-drive
         * may run the call beside the first.
         */
        private Duration redriveLease = DeadLetterRedrive.DEFAULT_LEASE;

        /**
         * When the deadletters endpoint shows argument values and error messages: never,
         * when-authorized (to an authenticated user with one of the roles) or always.
         * Values under sensitive keys (password, secret, token, key, credential,
         * authorization, card) are masked even when shown.
         */
        private ShowValues showValues = ShowValues.WHEN_AUTHORIZED;

        /**
         * Roles a user needs for the deadletters endpoint to show values when show-values
         * is when-authorized; empty means any authenticated user.
         */
        private Set<String> roles = new LinkedHashSet<>();

        /**
         * Name of the Redis store's keys, which share it as a hash tag
         * ("{<prefix>}:order"). Defaults to "<spring.application.name>:deadletters", or
         * "resilience:deadletters" without an application name, so that applications
         * sharing a Redis never list or delete each other's dead letters.
         */
        private @Nullable String keyPrefix;

        /**
         * Returns the kind of store.
         * @return the store
         */
        public Store getStore() {
            return this.store;
        }

        /**
         * Sets the kind of store.
         * @param store the store
         */
        public void setStore(Store store) {
            this.store = store;
        }

        /**
         * Returns the name of the Redis store's keys.
         * @return the prefix, or {@code null} for the application-scoped default
         */
        public @Nullable String getKeyPrefix() {
            return this.keyPrefix;
        }

        /**
         * Sets the name of the Redis store's keys.
         * @param keyPrefix the prefix, or {@code null} for the application-scoped default
         */
        public void setKeyPrefix(@Nullable String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        /**
         * Returns the maximum number of dead letters kept.
         * @return the capacity
         */
        public int getCapacity() {
            return this.capacity;
        }

        /**
         * Sets the maximum number of dead letters kept.
         * @param capacity the capacity
         */
        public void setCapacity(int capacity) {
            this.capacity = capacity;
        }

        /**
         * Returns the longest time a command of the Redis store waits for Redis.
         * @return the store timeout
         */
        public Duration getStoreTimeout() {
            return this.storeTimeout;
        }

        /**
         * Sets the longest time a command of the Redis store waits for Redis.
         * @param storeTimeout the store timeout
         */
        public void setStoreTimeout(Duration storeTimeout) {
            this.storeTimeout = storeTimeout;
        }

        /**
         * Returns the maximum size of one argument's text in a dead letter.
         * @return the maximum argument size
         */
        public DataSize getMaxArgumentSize() {
            return this.maxArgumentSize;
        }

        /**
         * Sets the maximum size of one argument's text in a dead letter.
         * @param maxArgumentSize the maximum argument size
         */
        public void setMaxArgumentSize(DataSize maxArgumentSize) {
            this.maxArgumentSize = maxArgumentSize;
        }

        /**
         * Returns how long a dead letter is kept.
         * @return the time to live
         */
        public Duration getTtl() {
            return this.ttl;
        }

        /**
         * Sets how long a dead letter is kept.
         * @param ttl the time to live
         */
        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }

        /**
         * Returns the longest a re-drive's claim holds its dead letter.
         * @return the lease
         */
        public Duration getRedriveLease() {
            return this.redriveLease;
        }

        /**
         * Sets the longest a re-drive's claim holds its dead letter.
         * @param redriveLease the lease
         */
        public void setRedriveLease(Duration redriveLease) {
            this.redriveLease = redriveLease;
        }

        /**
         * Returns when the endpoint shows values.
         * @return when values are shown
         */
        public ShowValues getShowValues() {
            return this.showValues;
        }

        /**
         * Sets when the endpoint shows values.
         * @param showValues when values are shown
         */
        public void setShowValues(ShowValues showValues) {
            this.showValues = showValues;
        }

        /**
         * Returns the roles that see values when authorized.
         * @return the roles
         */
        public Set<String> getRoles() {
            return this.roles;
        }

        /**
         * Sets the roles that see values when authorized.
         * @param roles the roles
         */
        public void setRoles(Set<String> roles) {
            this.roles = roles;
        }

        /**
         * When dead-letter values are shown, as Spring Boot's {@code Show} of the
         * {@code env} endpoint.
         */
        public enum ShowValues {

            /** Never: every value is masked. */
            NEVER,

            /**
             * To an authenticated user with one of the roles (any, when none are set).
             */
            WHEN_AUTHORIZED,

            /** Always, with the values of sensitive keys still masked. */
            ALWAYS

        }

        /**
         * The kinds of dead letter store.
         */
        public enum Store {

            /** A bounded store in the application's memory. */
            MEMORY,

            /** A Redis store through Spring Data Redis. */
            REDIS,

            /** No store: dead letters are not written. */
            NONE

        }

    }

    /**
     * Settings of outgoing calls made with a {@code RestClient}, a {@code RestTemplate}
     * or a {@code WebClient} built from Spring Boot's builders: each request runs through
     * a retry instance and a circuit breaker per host.
     */
    public static class HttpClient {

        /** The default name of the retry instance of outgoing calls. */
        public static final String DEFAULT_RETRY = "http-client";

        /** The default longest Retry-After wait that is honoured: 30 seconds. */
        public static final Duration DEFAULT_MAX_RETRY_AFTER = Duration.ofSeconds(30);

        /** The default number of hosts that get a circuit breaker of their own: 50. */
        public static final int DEFAULT_MAX_HOSTS = 50;

        /**
         * Whether requests of RestClients, RestTemplates and WebClients built from the
         * auto-configured RestClient.Builder, RestTemplateBuilder and WebClient.Builder
         * are retried and guarded by circuit breakers.
         */
        private boolean enabled;

        /**
         * Name of the retry instance, configured under resilience.retry.instances, whose
         * settings apply to outgoing calls.
         */
        private String retry = DEFAULT_RETRY;

        /**
         * Whether each host, up to max-hosts, gets its own circuit breaker, named
         * "http-client:" followed by the host in lower case, and by ":" and the port when
         * it is not the scheme's default (such as "http-client:api.example.com" or
         * "http-client:localhost:8080"); false guards no call with a breaker.
         */
        private boolean circuitBreakerPerHost = true;

        /**
         * Most hosts that get a circuit breaker of their own, the first ones called; the
         * hosts called after them share the breaker "http-client:other", so that the
         * number of breakers, their meters and their events stays bounded whatever the
         * URLs called.
         */
        private int maxHosts = DEFAULT_MAX_HOSTS;

        /**
         * Longest Retry-After wait that is honoured; a response asking for a longer wait,
         * or for one longer than the max-delay of the retry instance, is returned to the
         * caller at once, without a retry.
         */
        private Duration maxRetryAfter = DEFAULT_MAX_RETRY_AFTER;

        /**
         * Returns whether outgoing calls are made resilient.
         * @return whether the RestClient and WebClient integrations are on
         */
        public boolean isEnabled() {
            return this.enabled;
        }

        /**
         * Sets whether outgoing calls are made resilient.
         * @param enabled whether the RestClient and WebClient integrations are on
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /**
         * Returns the name of the retry instance of outgoing calls.
         * @return the retry instance's name
         */
        public String getRetry() {
            return this.retry;
        }

        /**
         * Sets the name of the retry instance of outgoing calls.
         * @param retry the retry instance's name
         */
        public void setRetry(String retry) {
            this.retry = retry;
        }

        /**
         * Returns whether each host gets its own circuit breaker.
         * @return whether calls are guarded by a breaker per host
         */
        public boolean isCircuitBreakerPerHost() {
            return this.circuitBreakerPerHost;
        }

        /**
         * Sets whether each host gets its own circuit breaker.
         * @param circuitBreakerPerHost whether calls are guarded by a breaker per host
         */
        public void setCircuitBreakerPerHost(boolean circuitBreakerPerHost) {
            this.circuitBreakerPerHost = circuitBreakerPerHost;
        }

        /**
         * Returns the most hosts that get a circuit breaker of their own.
         * @return the number of hosts
         */
        public int getMaxHosts() {
            return this.maxHosts;
        }

        /**
         * Sets the most hosts that get a circuit breaker of their own.
         * @param maxHosts the number of hosts, at least 1
         */
        public void setMaxHosts(int maxHosts) {
            this.maxHosts = maxHosts;
        }

        /**
         * Returns the longest Retry-After wait that is honoured.
         * @return the longest wait
         */
        public Duration getMaxRetryAfter() {
            return this.maxRetryAfter;
        }

        /**
         * Sets the longest Retry-After wait that is honoured.
         * @param maxRetryAfter the longest wait
         */
        public void setMaxRetryAfter(Duration maxRetryAfter) {
            this.maxRetryAfter = maxRetryAfter;
        }

    }

    /**
     * Fault injection: failures and latency injected into each attempt of the named
     * protected operations, inside the pipeline, so that every policy reacts as it would
     * in production.
     */
    public static class Chaos {

        /**
         * Whether faults are injected; when false no attempt is touched and the chaos
         * endpoint is absent.
         */
        private boolean enabled;

        /**
         * Faults by protected operation name (the retry, breaker or idempotency name, or
         * SimpleClassName#method).
         */
        private final Map<String, Instance> instances = new LinkedHashMap<>();

        /**
         * Returns whether faults are injected.
         * @return whether chaos is on
         */
        public boolean isEnabled() {
            return this.enabled;
        }

        /**
         * Sets whether faults are injected.
         * @param enabled whether chaos is on
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /**
         * Returns the faults by operation name.
         * @return the settings under {@code resilience.chaos.instances}
         */
        public Map<String, Instance> getInstances() {
            return this.instances;
        }

        /**
         * The faults injected into one protected operation.
         */
        public static class Instance {

            /**
             * Fraction of attempts that fail, from 0 to 1.
             */
            private double failureRate;

            /**
             * Time each attempt waits before it runs.
             */
            private Duration latency = Duration.ZERO;

            /**
             * Class of the failure thrown: a RuntimeException with a public constructor
             * taking a message, or a public no-argument one.
             */
            private String exception = "dev.resilience.chaos.ChaosException";

            /**
             * Returns the fraction of attempts that fail.
             * @return the failure rate
             */
            public double getFailureRate() {
                return this.failureRate;
            }

            /**
             * Sets the fraction of attempts that fail.
             * @param failureRate the failure rate, from 0 to 1
             */
            public void setFailureRate(double failureRate) {
                this.failureRate = failureRate;
            }

            /**
             * Returns the time each attempt waits before it runs.
             * @return the latency
             */
            public Duration getLatency() {
                return this.latency;
            }

            /**
             * Sets the time each attempt waits before it runs.
             * @param latency the latency
             */
            public void setLatency(Duration latency) {
                this.latency = latency;
            }

            /**
             * Returns the class name of the failure thrown.
             * @return the class name
             */
            public String getException() {
                return this.exception;
            }

            /**
             * Sets the class name of the failure thrown.
             * @param exception the class name
             */
            public void setException(String exception) {
                this.exception = exception;
            }

        }

    }

    /**
     * Settings of the lines logged for retries, fallbacks and unsuccessful calls.
     */
    public static class Logs {

        /**
         * Whether a line is logged for each retry (dev.resilience.retry, INFO), each
         * fallback used (dev.resilience.fallback, WARN) and each call that ends without
         * success (dev.resilience.call, WARN); their levels are set with logging.level.
         */
        private boolean enabled = true;

        /**
         * Shortest time between two WARN lines of one category (dev.resilience.fallback,
         * dev.resilience.call) about one instance name; the lines held back in between
         * are counted on the next one. 0 logs every line. Retry lines are not throttled.
         */
        private Duration interval = ExecutionLogListener.DEFAULT_INTERVAL;

        /**
         * Returns the shortest time between two WARN lines of one category and name.
         * @return the interval
         */
        public Duration getInterval() {
            return this.interval;
        }

        /**
         * Sets the shortest time between two WARN lines of one category and name.
         * @param interval the interval; zero logs every line
         */
        public void setInterval(Duration interval) {
            this.interval = interval;
        }

        /**
         * Returns whether the lines are logged.
         * @return whether the lines are logged
         */
        public boolean isEnabled() {
            return this.enabled;
        }

        /**
         * Sets whether the lines are logged.
         * @param enabled whether the lines are logged
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

    }

    /**
     * Settings of the fallbacks.
     */
    public static class Fallback {

        /**
         * Where the values of {@code @Fallback(lastGood = ...)} are kept.
         */
        private final LastGood lastGood = new LastGood();

        /**
         * Returns where last good values are kept.
         * @return the last good value settings
         */
        public LastGood getLastGood() {
            return this.lastGood;
        }

    }

    /**
     * Where the last good values of {@code @Fallback(lastGood = ...)} are kept.
     */
    public static class LastGood {

        /**
         * The store of last good values: memory (bounded by max-entries, per instance) or
         * redis (shared by every instance, each value expiring with its lastGood time).
         */
        private Idempotency.Store store = Idempotency.Store.MEMORY;

        /**
         * Most values the memory store keeps; the oldest stored is evicted first.
         */
        private int maxEntries = InMemoryLastGoodStore.DEFAULT_MAX_ENTRIES;

        /**
         * Prefix of the Redis store's keys; defaults to
         * "<spring.application.name>:lastgood:", or "lastgood:" without a name.
         */
        private @Nullable String keyPrefix;

        /**
         * Longest time a read or write waits for the Redis store; past it a read goes on
         * to the named fallbacks and a write is given up.
         */
        private Duration storeTimeout = Duration.ofMillis(500);

        /**
         * Returns the store.
         * @return the store
         */
        public Idempotency.Store getStore() {
            return this.store;
        }

        /**
         * Sets the store.
         * @param store the store
         */
        public void setStore(Idempotency.Store store) {
            this.store = store;
        }

        /**
         * Returns the bound of the memory store.
         * @return the most values kept
         */
        public int getMaxEntries() {
            return this.maxEntries;
        }

        /**
         * Sets the bound of the memory store.
         * @param maxEntries the most values kept
         */
        public void setMaxEntries(int maxEntries) {
            this.maxEntries = maxEntries;
        }

        /**
         * Returns the prefix of the Redis keys.
         * @return the prefix, or {@code null} for the default
         */
        public @Nullable String getKeyPrefix() {
            return this.keyPrefix;
        }

        /**
         * Sets the prefix of the Redis keys.
         * @param keyPrefix the prefix
         */
        public void setKeyPrefix(@Nullable String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        /**
         * Returns the Redis store's timeout.
         * @return the timeout
         */
        public Duration getStoreTimeout() {
            return this.storeTimeout;
        }

        /**
         * Sets the Redis store's timeout.
         * @param storeTimeout the timeout
         */
        public void setStoreTimeout(Duration storeTimeout) {
            this.storeTimeout = storeTimeout;
        }

    }

    /**
     * Settings of hedging: defaults, and per-instance overrides keyed by hedging name.
     */
    public static class Hedging {

        /**
         * Settings every hedging instance starts from.
         */
        @NestedConfigurationProperty
        private final HedgingSettings defaults = new HedgingSettings();

        /**
         * Settings of individual hedging instances, keyed by name; they override the
         * annotation and the defaults.
         */
        private final Map<String, HedgingSettings> instances = new LinkedHashMap<>();

        /**
         * Returns the settings every hedging instance starts from.
         * @return the defaults
         */
        public HedgingSettings getDefaults() {
            return this.defaults;
        }

        /**
         * Returns the settings of individual hedging instances.
         * @return the settings keyed by hedging name, modifiable
         */
        public Map<String, HedgingSettings> getInstances() {
            return this.instances;
        }

    }

}
