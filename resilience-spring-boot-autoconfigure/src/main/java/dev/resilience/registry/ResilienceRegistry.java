package dev.resilience.registry;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Hedged;
import dev.resilience.annotation.RateLimited;
import dev.resilience.annotation.Retryable;
import dev.resilience.annotation.TimeLimited;
import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.ratelimiter.SharedPermits;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.TimeSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogMessage;

/**
 * The named instances of an application: one shared circuit breaker per breaker name, one
 * retry policy per retry instance, one bulkhead, one rate limiter and one hedging
 * instance per name, and the {@link CallStatistics} of every protected operation. The
 * first request for a name resolves it through the {@link PolicyResolver} (YAML instance
 * &gt; annotation &gt; YAML defaults &gt; built-in), once, even when threads ask for it
 * at the same time; every later request, with or without an annotation, gets the same
 * instance. A second annotation that configures a name otherwise fails the start before
 * it gets here ({@code InstanceNameConflicts}); an annotation that sets anything of a
 * name first resolved without one is logged as not applying. Instances are created at
 * startup, when annotated methods are compiled and configured instances are read, and at
 * first use by the HTTP client and {@code ResilienceTemplate}; each listener hears of
 * each instance once. Thread-safe; a lookup of an existing instance takes no lock.
 *
 * <p>
 * Longer than 400 lines because it is the one registry of every kind of named instance:
 * each kind has the same few methods (resolve once, find, list), kept side by side so
 * that they stay alike.
 */
public final class ResilienceRegistry {

    private static final Log logger = LogFactory.getLog(ResilienceRegistry.class);

    private final PolicyResolver resolver;

    private final TimeSource timeSource;

    private final @Nullable Executor executor;

    private final Map<String, CircuitBreaker> breakers = new ConcurrentHashMap<>();

    private final Map<String, RetryPolicy> retryPolicies = new ConcurrentHashMap<>();

    private final Map<String, CallStatistics> statistics = new ConcurrentHashMap<>();

    private final Map<String, Bulkhead> bulkheads = new ConcurrentHashMap<>();

    private final Map<String, RateLimiter> rateLimiters = new ConcurrentHashMap<>();

    private final Map<String, Duration> timeLimits = new ConcurrentHashMap<>();

    private final Map<String, HedgingInstance> hedging = new ConcurrentHashMap<>();

    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();

    private final UnreadAnnotations unreadBreakerAnnotations = new UnreadAnnotations("circuit breaker",
            "resilience.circuit-breaker.instances.");

    private final UnreadAnnotations unreadRetryAnnotations = new UnreadAnnotations("retry instance",
            "resilience.retry.instances.");

    private final UnreadAnnotations unreadBulkheadAnnotations = new UnreadAnnotations("bulkhead",
            "resilience.bulkhead.instances.");

    private final UnreadAnnotations unreadRateLimiterAnnotations = new UnreadAnnotations("rate limiter",
            "resilience.rate-limiter.instances.");

    private final UnreadAnnotations unreadHedgingAnnotations = new UnreadAnnotations("hedging instance",
            "resilience.hedging.instances.");

    /**
     * Creates an empty registry whose breakers run their timed transitions where
     * {@link CircuitBreaker#of(String, CircuitBreakerConfig, TimeSource)} runs them.
     * @param resolver what turns a name and the annotation that names it into a policy
     * @param timeSource the clock of every breaker created here
     */
    public ResilienceRegistry(PolicyResolver resolver, TimeSource timeSource) {
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
        this.executor = null;
    }

    /**
     * Creates an empty registry whose breakers run their timed transitions, with their
     * listeners, on the given executor.
     * @param resolver what turns a name and the annotation that names it into a policy
     * @param timeSource the clock of every breaker created here
     * @param executor where the automatic transitions of every breaker created here run
     * @see CircuitBreaker#of(String, CircuitBreakerConfig, TimeSource, Executor)
     */
    public ResilienceRegistry(PolicyResolver resolver, TimeSource timeSource, Executor executor) {
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /**
     * Adds a listener and tells it of every instance that exists already; it hears of
     * every later one when it is created. A listener hears of an instance once, whatever
     * the timing of the two.
     * @param listener the listener
     */
    public void addListener(RegistryListener listener) {
        Subscription subscription = new Subscription(listener);
        this.subscriptions.add(subscription);
        List.copyOf(this.breakers.values()).forEach(subscription::tell);
        List.copyOf(this.bulkheads.values()).forEach(subscription::tell);
        List.copyOf(this.rateLimiters.values()).forEach(subscription::tell);
        List.copyOf(this.statistics.values()).forEach(subscription::tell);
        List.copyOf(this.retryPolicies.keySet())
            .forEach((name) -> subscription.tell(new RetryInstance(statistics(name))));
        List.copyOf(this.hedging.values()).forEach(subscription::tell);
    }

    /**
     * Creates the retry instances, breakers, bulkheads and rate limiters the resolver
     * says are configured by name (under {@code instances}) that nothing has asked for
     * yet, so that they too exist from the start.
     */
    public void createConfiguredInstances() {
        this.resolver.configuredRetries().forEach(this::retry);
        this.resolver.configuredCircuitBreakers().forEach(this::circuitBreaker);
        this.resolver.configuredBulkheads().forEach((name) -> bulkhead(name, null));
        this.resolver.configuredRateLimiters().forEach((name) -> rateLimiter(name, null));
        this.resolver.configuredHedging().forEach((name) -> hedging(name, null));
    }

    /**
     * Returns the bulkhead of a name, resolving and creating it on the first request for
     * the name.
     * @param name the bulkhead's name
     * @param annotation the annotation that names it, if any; only the first request for
     * the name reads it
     * @return the one bulkhead of that name
     * @throws InvalidResiliencePolicyException when the first request cannot resolve a
     * valid configuration; nothing is registered then
     */
    public Bulkhead bulkhead(String name, dev.resilience.annotation.@Nullable Bulkhead annotation) {
        Bulkhead bulkhead = instance(this.bulkheads, name, (key) -> {
            BulkheadConfig resolved;
            try {
                resolved = this.resolver.bulkhead(key, annotation);
            }
            catch (InvalidResiliencePolicyException ex) {
                throw ex.about("bulkhead '" + key + "'");
            }
            if (annotation == null) {
                this.unreadBulkheadAnnotations.resolvedWithout(key);
            }
            return Bulkhead.of(key, resolved, this.timeSource);
        }, this::announce);
        if (annotation != null) {
            this.unreadBulkheadAnnotations.check(name, annotation);
        }
        return bulkhead;
    }

    /**
     * Returns the bulkhead of a name.
     * @param name the bulkhead's name
     * @return the bulkhead, or empty when none has that name
     */
    public Optional<Bulkhead> findBulkhead(String name) {
        return Optional.ofNullable(this.bulkheads.get(name));
    }

    /**
     * Returns every bulkhead by name.
     * @return the bulkheads, sorted by name
     */
    public SortedMap<String, Bulkhead> bulkheads() {
        return new TreeMap<>(this.bulkheads);
    }

    /**
     * Returns the rate limiter of a name, resolving and creating it on the first request
     * for the name.
     * @param name the rate limiter's name
     * @param annotation the annotation that names it, if any; only the first request for
     * the name reads it
     * @return the one rate limiter of that name
     * @throws InvalidResiliencePolicyException when the first request cannot resolve a
     * valid configuration; nothing is registered then
     */
    public RateLimiter rateLimiter(String name, @Nullable RateLimited annotation) {
        RateLimiter rateLimiter = instance(this.rateLimiters, name, (key) -> {
            RateLimiterConfig resolved;
            SharedPermits shared;
            try {
                resolved = this.resolver.rateLimiter(key, annotation);
                shared = this.resolver.rateLimiterPermits(key, annotation, resolved);
            }
            catch (InvalidResiliencePolicyException ex) {
                throw ex.about("rate limiter '" + key + "'");
            }
            if (annotation == null) {
                this.unreadRateLimiterAnnotations.resolvedWithout(key);
            }
            return (shared != null) ? RateLimiter.of(key, resolved, this.timeSource, shared)
                    : RateLimiter.of(key, resolved, this.timeSource);
        }, this::announce);
        if (annotation != null) {
            this.unreadRateLimiterAnnotations.check(name, annotation);
        }
        return rateLimiter;
    }

    /**
     * Returns the time limit of a time limiter's name, resolving it on the first request
     * for the name. A time limiter keeps no state: the name only keys its setting.
     * @param name the time limiter's name
     * @param annotation the annotation that names it, if any; only the first request for
     * the name reads it
     * @return the time limit
     * @throws InvalidResiliencePolicyException when the first request cannot resolve a
     * positive time limit; nothing is registered then
     */
    public Duration timeLimit(String name, @Nullable TimeLimited annotation) {
        return this.timeLimits.computeIfAbsent(name, (key) -> {
            try {
                return this.resolver.timeLimit(key, annotation);
            }
            catch (InvalidResiliencePolicyException ex) {
                throw ex.about("time limiter '" + key + "'");
            }
        });
    }

    /**
     * Returns the rate limiter of a name.
     * @param name the rate limiter's name
     * @return the rate limiter, or empty when none has that name
     */
    public Optional<RateLimiter> findRateLimiter(String name) {
        return Optional.ofNullable(this.rateLimiters.get(name));
    }

    /**
     * Returns every rate limiter by name.
     * @return the rate limiters, sorted by name
     */
    public SortedMap<String, RateLimiter> rateLimiters() {
        return new TreeMap<>(this.rateLimiters);
    }

    /**
     * Returns the breaker of a name, resolving and creating it on the first request for
     * the name.
     * @param name the breaker's name
     * @param annotation the annotation that names it, if any; only the first request for
     * the name reads it
     * @return the one breaker of that name
     * @throws InvalidResiliencePolicyException when the first request cannot resolve a
     * valid configuration; nothing is registered then. An annotation that sets anything
     * of a breaker first resolved without one does not change it; a warning says so
     */
    public CircuitBreaker circuitBreaker(String name, @Nullable CircuitGuarded annotation) {
        return circuitBreaker(name, annotation, null);
    }

    /**
     * Returns the breaker of a name, resolving and creating it on the first request for
     * the name, with a result predicate that the resolver cannot read from the
     * annotation: the methods' {@code failOnResult} expressions, which only the one who
     * compiles the methods can parse.
     * @param name the breaker's name
     * @param annotation the annotation that names it, if any; only the first request for
     * the name reads it
     * @param failOnResult the breaker's result predicate, or {@code null} to keep the
     * resolved one; only the first request for the name gives it
     * @return the one breaker of that name
     * @throws InvalidResiliencePolicyException when the first request cannot resolve a
     * valid configuration; nothing is registered then
     */
    public CircuitBreaker circuitBreaker(String name, @Nullable CircuitGuarded annotation,
            @Nullable Predicate<@Nullable Object> failOnResult) {
        CircuitBreaker breaker = breaker(name, (key) -> {
            CircuitBreakerConfig resolved;
            try {
                resolved = this.resolver.circuitBreaker(key, annotation);
            }
            catch (InvalidResiliencePolicyException ex) {
                throw ex.about("circuit breaker '" + key + "'");
            }
            if (annotation == null) {
                this.unreadBreakerAnnotations.resolvedWithout(key);
            }
            return (failOnResult != null) ? resolved.toBuilder().failOnResult(failOnResult).build() : resolved;
        });
        if (annotation != null) {
            this.unreadBreakerAnnotations.check(name, annotation);
        }
        return breaker;
    }

    /**
     * Returns the breaker of a name that no annotation names here, as the HTTP client,
     * {@code ResilienceTemplate} and the configured instances name it.
     * @param name the breaker's name
     * @return the one breaker of that name
     * @throws InvalidResiliencePolicyException when the first request cannot resolve a
     * valid configuration
     * @see #circuitBreaker(String, CircuitGuarded)
     */
    public CircuitBreaker circuitBreaker(String name) {
        return circuitBreaker(name, (CircuitGuarded) null);
    }

    /**
     * Returns the breaker of a name, creating it with the configuration the supplier
     * gives if it does not exist yet.
     * @param name the breaker's name
     * @param config the configuration of a new breaker
     * @return the one breaker of that name
     * @deprecated since 0.1.0, for removal: a configuration given by the caller bypasses
     * the resolver, so a name could get one the application does not configure; use
     * {@link #circuitBreaker(String, CircuitGuarded)} or {@link #circuitBreaker(String)}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public CircuitBreaker circuitBreaker(String name, Supplier<CircuitBreakerConfig> config) {
        CircuitBreaker existing = this.breakers.get(name);
        if (existing != null) {
            return existing;
        }
        CircuitBreakerConfig created = config.get();
        return breaker(name, (key) -> created);
    }

    private CircuitBreaker breaker(String name, Function<String, CircuitBreakerConfig> config) {
        return instance(this.breakers, name,
                (key) -> (this.executor != null)
                        ? CircuitBreaker.of(key, config.apply(key), this.timeSource, this.executor)
                        : CircuitBreaker.of(key, config.apply(key), this.timeSource),
                this::announce);
    }

    /**
     * Returns the breaker of a name.
     * @param name the breaker's name
     * @return the breaker, or empty when none has that name
     */
    public Optional<CircuitBreaker> findCircuitBreaker(String name) {
        return Optional.ofNullable(this.breakers.get(name));
    }

    /**
     * Returns every breaker by name.
     * @return the breakers, sorted by name
     */
    public SortedMap<String, CircuitBreaker> circuitBreakers() {
        return new TreeMap<>(this.breakers);
    }

    /**
     * Returns the retry policy of a retry instance, resolving and registering it, with
     * the instance's statistics, on the first request for the name.
     * @param name the retry instance's name
     * @param annotation the annotation that names it, if any; only the first request for
     * the name reads it
     * @return the one policy of that name
     * @throws InvalidResiliencePolicyException when the first request cannot resolve a
     * valid policy, nothing being registered then; or when the annotation sets anything
     * of an instance first resolved without one, whose policy it would never change
     */
    public RetryPolicy retry(String name, @Nullable Retryable annotation) {
        RetryPolicy policy = instance(this.retryPolicies, name, (key) -> {
            RetryPolicy resolved;
            try {
                resolved = this.resolver.retry(key, annotation);
            }
            catch (InvalidResiliencePolicyException ex) {
                throw ex.about("retry instance '" + key + "'");
            }
            if (annotation == null) {
                this.unreadRetryAnnotations.resolvedWithout(key);
            }
            return resolved;
        }, (created) -> announce(new RetryInstance(statistics(name))));
        if (annotation != null) {
            this.unreadRetryAnnotations.check(name, annotation);
        }
        return policy;
    }

    /**
     * Returns the retry policy of a retry instance that no annotation names here, as the
     * HTTP client, {@code ResilienceTemplate} and the configured instances name it: that
     * of the annotated methods that name it when they were compiled first, else the
     * policy the configuration alone gives.
     * @param name the retry instance's name
     * @return the one policy of that name
     * @throws InvalidResiliencePolicyException when the first request cannot resolve a
     * valid policy
     * @see #retry(String, Retryable)
     */
    public RetryPolicy retry(String name) {
        return retry(name, null);
    }

    /**
     * Records the retry policy of a named retry instance; the first one recorded for a
     * name is the one kept.
     * @param name the retry instance's name
     * @param policy its resolved policy
     * @deprecated since 0.1.0, for removal: the registry resolves retry instances itself,
     * once per name; use {@link #retry(String, Retryable)} or {@link #retry(String)}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public void registerRetryPolicy(String name, RetryPolicy policy) {
        if (this.retryPolicies.putIfAbsent(name, policy) == null) {
            announce(new RetryInstance(statistics(name)));
        }
    }

    /**
     * Returns the retry policy registered for a name.
     * @param name the retry instance's name
     * @return the policy, or empty when none is registered
     */
    public Optional<RetryPolicy> findRetryPolicy(String name) {
        return Optional.ofNullable(this.retryPolicies.get(name));
    }

    /**
     * Returns every retry instance's policy by name.
     * @return the policies, sorted by name
     */
    public SortedMap<String, RetryPolicy> retryPolicies() {
        return new TreeMap<>(this.retryPolicies);
    }

    /**
     * Returns the hedging instance of a name, resolving its policy and creating it on the
     * first request for the name.
     * @param name the hedging instance's name
     * @param annotation the annotation that names it, if any; only the first request for
     * the name reads it
     * @return the one hedging instance of that name
     * @throws InvalidResiliencePolicyException when the first request cannot resolve a
     * valid policy; nothing is registered then
     */
    public HedgingInstance hedging(String name, @Nullable Hedged annotation) {
        HedgingInstance instance = instance(this.hedging, name, (key) -> {
            HedgingPolicy resolved;
            try {
                resolved = this.resolver.hedging(key, annotation);
            }
            catch (InvalidResiliencePolicyException ex) {
                throw ex.about("hedging instance '" + key + "'");
            }
            if (annotation == null) {
                this.unreadHedgingAnnotations.resolvedWithout(key);
            }
            return new HedgingInstance(key, resolved);
        }, this::announce);
        if (annotation != null) {
            this.unreadHedgingAnnotations.check(name, annotation);
        }
        return instance;
    }

    /**
     * Returns every hedging instance by name.
     * @return the hedging instances, sorted by name
     */
    public SortedMap<String, HedgingInstance> hedging() {
        return new TreeMap<>(this.hedging);
    }

    /**
     * Returns the statistics of a protected operation, creating them on first use.
     * @param name the operation's name
     * @return its statistics
     */
    public CallStatistics statistics(String name) {
        return instance(this.statistics, name, CallStatistics::new, this::announce);
    }

    /**
     * Returns every protected operation's statistics by name.
     * @return the statistics, sorted by name
     */
    public SortedMap<String, CallStatistics> statistics() {
        return new TreeMap<>(this.statistics);
    }

    /**
     * Puts every instance's state back as it was created, for tests, between one and the
     * next: each breaker CLOSED with an empty window ({@link CircuitBreaker#reset()}),
     * each retry budget empty and refilled ({@link RetryBudget#reset()}), each bulkhead's
     * limit back to its initial one ({@link Bulkhead#reset()}) and each rate limiter's
     * burst free ({@link RateLimiter#reset()}). The instances stay the same objects, so
     * the pipelines, meters and endpoints that hold them see the fresh state; the counts
     * since creation that counters and {@link CallStatistics} read are kept, so no
     * counter goes back. Thread-safe; a call running meanwhile ends as each instance's
     * reset describes.
     */
    public void reset() {
        this.breakers.values().forEach(CircuitBreaker::reset);
        this.retryPolicies.values()
            .stream()
            .map(RetryPolicy::budget)
            .filter(Objects::nonNull)
            .distinct()
            .forEach(RetryBudget::reset);
        this.bulkheads.values().forEach(Bulkhead::reset);
        this.rateLimiters.values().forEach(RateLimiter::reset);
    }

    /**
     * Returns the resolver of this registry's instances, which also resolves the
     * idempotency policies of {@link ResiliencePolicies}.
     */
    PolicyResolver resolver() {
        return this.resolver;
    }

    /**
     * Returns the instance of a name, creating it on the first request: the map creates
     * it once per name, however many threads ask, and the thread whose request created it
     * tells the listeners after it is in the map, outside the map's lock.
     */
    private <T> T instance(Map<String, T> instances, String name, Function<String, T> create, Consumer<T> created) {
        T existing = instances.get(name);
        if (existing != null) {
            return existing;
        }
        AtomicBoolean createdHere = new AtomicBoolean();
        T instance = instances.computeIfAbsent(name, (key) -> {
            createdHere.set(true);
            return create.apply(key);
        });
        if (createdHere.get()) {
            created.accept(instance);
        }
        return instance;
    }

    private void announce(Object instance) {
        this.subscriptions.forEach((subscription) -> subscription.tell(instance));
    }

    /**
     * The creation of a retry instance, told to listeners with the statistics of its
     * name, once per name.
     */
    private record RetryInstance(CallStatistics statistics) {
    }

    /**
     * A listener and the instances it has been told of: an instance created while the
     * listener is added is both in the registry's maps it replays and announced to it,
     * and it is told of it by whichever comes first.
     */
    private static final class Subscription {

        private final RegistryListener listener;

        private final Set<Object> told = ConcurrentHashMap.newKeySet();

        Subscription(RegistryListener listener) {
            this.listener = listener;
        }

        void tell(Object instance) {
            if (!this.told.add(instance)) {
                return;
            }
            try {
                if (instance instanceof CircuitBreaker breaker) {
                    this.listener.onCircuitBreaker(breaker);
                }
                else if (instance instanceof Bulkhead bulkhead) {
                    this.listener.onBulkhead(bulkhead);
                }
                else if (instance instanceof RateLimiter rateLimiter) {
                    this.listener.onRateLimiter(rateLimiter);
                }
                else if (instance instanceof CallStatistics callStatistics) {
                    this.listener.onStatistics(callStatistics);
                }
                else if (instance instanceof HedgingInstance hedgingInstance) {
                    this.listener.onHedging(hedgingInstance);
                }
                else if (instance instanceof RetryInstance retryInstance) {
                    this.listener.onRetry(retryInstance.statistics());
                }
            }
            catch (RuntimeException ex) {
                logger.warn(LogMessage.format("Registry listener %s failed on %s", this.listener, instance), ex);
            }
        }

    }

}
