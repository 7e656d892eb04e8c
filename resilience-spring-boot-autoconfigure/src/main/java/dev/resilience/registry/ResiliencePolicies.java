package dev.resilience.registry;

import java.util.concurrent.Executor;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;

/**
 * What the pipelines of an application share: it resolves idempotency policies on the
 * application's idempotency store, through the {@link PolicyResolver} of its
 * {@link ResilienceRegistry}, and starts every pipeline with the clock, the executor, the
 * dead-letter store, the argument renderer and the statistics of its name. Named breakers
 * and retry instances are the registry's: ask {@link #registry()} for them. Used once per
 * annotated method at startup, and by the programmatic {@code ResilienceTemplate} and the
 * HTTP client. Thread-safe.
 */
public final class ResiliencePolicies {

    private final ResilienceRegistry registry;

    private final TimeSource timeSource;

    private final PolicyResolver resolver;

    private final ObjectProvider<IdempotencyStore> idempotencyStore;

    private final ObjectProvider<DeadLetterStore> deadLetterStore;

    private final ArgumentRenderer argumentRenderer;

    private final ObjectProvider<ExecutionListener> listeners;

    private final @Nullable Executor executor;

    private final int maxArgumentSize;

    /**
     * Creates the policies of an application over its registry, whose resolver also
     * resolves the idempotency policies.
     * @param registry the named instances, and the resolver of every policy
     * @param timeSource the clock of every pipeline
     * @param collaborators the stores and listeners, looked up when first needed
     * @param argumentRenderer how arguments are written into dead letters and
     * fingerprints
     * @param maxArgumentSize the bound, in bytes, of an argument written into a dead
     * letter
     */
    public ResiliencePolicies(ResilienceRegistry registry, TimeSource timeSource, Collaborators collaborators,
            ArgumentRenderer argumentRenderer, int maxArgumentSize) {
        this(registry, registry.resolver(), timeSource, collaborators, argumentRenderer, maxArgumentSize);
    }

    /**
     * Creates the policies of an application.
     * @param resolver the resolver of the registry, which resolves the idempotency
     * policies too
     * @param registry where instances are registered
     * @param timeSource the clock of every pipeline
     * @param collaborators the stores and listeners, looked up when first needed
     * @param argumentRenderer how arguments are written into dead letters and
     * fingerprints
     * @param maxArgumentSize the bound, in bytes, of an argument written into a dead
     * letter
     * @throws IllegalArgumentException when the resolver is not the registry's
     * @deprecated since 0.1.0, for removal: the registry holds the resolver; use
     * {@link #ResiliencePolicies(ResilienceRegistry, TimeSource, Collaborators, ArgumentRenderer, int)}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public ResiliencePolicies(PolicyResolver resolver, ResilienceRegistry registry, TimeSource timeSource,
            Collaborators collaborators, ArgumentRenderer argumentRenderer, int maxArgumentSize) {
        this(registry, sameAsTheRegistrys(resolver, registry), timeSource, collaborators, argumentRenderer,
                maxArgumentSize);
    }

    private static PolicyResolver sameAsTheRegistrys(PolicyResolver resolver, ResilienceRegistry registry) {
        if (resolver != registry.resolver()) {
            throw new IllegalArgumentException("The registry resolves breakers and retry instances with its own "
                    + "resolver, not the one given here: create the ResilienceRegistry with this resolver");
        }
        return resolver;
    }

    private ResiliencePolicies(ResilienceRegistry registry, PolicyResolver resolver, TimeSource timeSource,
            Collaborators collaborators, ArgumentRenderer argumentRenderer, int maxArgumentSize) {
        this.resolver = resolver;
        this.registry = registry;
        this.timeSource = timeSource;
        this.maxArgumentSize = maxArgumentSize;
        this.idempotencyStore = collaborators.idempotency();
        this.deadLetterStore = collaborators.deadLetters();
        this.listeners = collaborators.listeners();
        this.executor = collaborators.executor();
        this.argumentRenderer = argumentRenderer;
    }

    /**
     * Creates the retry instances and breakers configured under {@code instances} that no
     * annotated method has created, so that they too exist from the start.
     * @deprecated since 0.1.0, for removal: configured instances are the registry's; use
     * {@link ResilienceRegistry#createConfiguredInstances()}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public void createConfiguredInstances() {
        this.registry.createConfiguredInstances();
    }

    /**
     * Returns the registry of named instances: the breakers, retry instances and
     * statistics of the application, each resolved once.
     * @return the registry
     */
    public ResilienceRegistry registry() {
        return this.registry;
    }

    /**
     * Returns how arguments are rendered.
     * @return the renderer
     */
    public ArgumentRenderer argumentRenderer() {
        return this.argumentRenderer;
    }

    /**
     * Returns the policy of a retry instance, resolved by the registry on the first
     * request for the name.
     * @param name the retry instance's name
     * @param annotation the annotation that names it, if any
     * @return the policy
     * @deprecated since 0.1.0, for removal: retry instances are the registry's; use
     * {@link ResilienceRegistry#retry(String, Retryable)}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public RetryPolicy retry(String name, @Nullable Retryable annotation) {
        return this.registry.retry(name, annotation);
    }

    /**
     * Returns the policy of a retry instance named without an annotation, as
     * {@code ResilienceTemplate} names it.
     * @param name the retry instance's name
     * @return the policy shared with every other user of the name
     * @deprecated since 0.1.0, for removal: retry instances are the registry's; use
     * {@link ResilienceRegistry#retry(String)}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public RetryPolicy sharedRetry(String name) {
        return this.registry.retry(name);
    }

    /**
     * Returns the shared breaker of a name, resolved by the registry on the first request
     * for the name.
     * @param name the breaker's name
     * @param annotation the annotation that names it, if any; only the first request
     * reads it
     * @return the breaker
     * @deprecated since 0.1.0, for removal: breakers are the registry's; use
     * {@link ResilienceRegistry#circuitBreaker(String, CircuitGuarded)}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public CircuitBreaker circuitBreaker(String name, @Nullable CircuitGuarded annotation) {
        return this.registry.circuitBreaker(name, annotation);
    }

    /**
     * Resolves an idempotency policy on the application's idempotency store.
     * @param name the policy's name
     * @param annotation the annotation
     * @return the policy
     */
    public IdempotencyPolicy idempotency(String name, Idempotent annotation) {
        try {
            return this.resolver.idempotency(name, annotation, this.idempotencyStore.getObject());
        }
        catch (InvalidResiliencePolicyException ex) {
            throw ex.about("idempotency '" + name + "'");
        }
    }

    /**
     * Starts a pipeline with what every pipeline of the application shares: the clock,
     * the executor of asynchronous work, the dead-letter store, the argument renderer
     * (never {@link ArgumentRenderer#TO_STRING} for dead letters) and bound, and the
     * statistics of its name.
     * @param name the protected operation's name
     * @return a builder to add policies to
     */
    public ResiliencePipeline.Builder pipeline(String name) {
        ResiliencePipeline.Builder builder = ResiliencePipeline.builder(name)
            .timeSource(this.timeSource)
            .listener(this.registry.statistics(name))
            .maxArgumentSize(this.maxArgumentSize);
        if (this.argumentRenderer != ArgumentRenderer.TO_STRING) {
            // toString() may print secrets: without a renderer of data, the core writes
            // data only
            builder.argumentRenderer(this.argumentRenderer::render);
        }
        this.listeners.orderedStream().forEach(builder::listener);
        if (this.executor != null) {
            builder.executor(this.executor);
        }
        DeadLetterStore deadLetters = this.deadLetterStore.getIfAvailable();
        if (deadLetters != null) {
            builder.deadLetters(deadLetters);
        }
        return builder;
    }

    /**
     * The collaborators of every pipeline, looked up when first needed.
     *
     * @param idempotency the idempotency store
     * @param deadLetters the dead-letter store; absent when dead letters are off
     * @param listeners the application's execution listeners, told of every call after
     * its statistics
     * @param executor where the work that follows a timer or an asynchronous completion
     * runs; {@code null} for the engine's own pool
     */
    public record Collaborators(ObjectProvider<IdempotencyStore> idempotency,
            ObjectProvider<DeadLetterStore> deadLetters, ObjectProvider<ExecutionListener> listeners,
            @Nullable Executor executor) {
    }

}
