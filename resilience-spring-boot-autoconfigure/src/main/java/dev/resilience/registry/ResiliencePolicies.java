package dev.resilience.registry;

import java.util.Optional;
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
 * Turns instance names and annotations into the engine's policies, through a
 * {@link PolicyResolver} that applies the precedence of the configuration (YAML instance
 * &gt; annotation &gt; YAML defaults &gt; built-in), and registers every instance it
 * creates. Used once per annotated method at startup, and by the programmatic
 * {@code ResilienceTemplate}. Thread-safe.
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
     * Creates the policies of an application.
     * @param resolver what turns names and annotations into policies
     * @param registry where instances are registered
     * @param timeSource the clock of every policy
     * @param collaborators the stores and listeners, looked up when first needed
     * @param argumentRenderer how arguments are written into dead letters and
     * fingerprints
     * @param maxArgumentSize the bound, in bytes, of an argument written into a dead
     * letter
     */
    public ResiliencePolicies(PolicyResolver resolver, ResilienceRegistry registry, TimeSource timeSource,
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
     */
    public void createConfiguredInstances() {
        this.resolver.configuredRetries().forEach((name) -> retry(name, null));
        this.resolver.configuredCircuitBreakers().forEach((name) -> circuitBreaker(name, null));
    }

    /**
     * Returns the registry the instances are kept in.
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
     * Resolves and registers a retry instance's policy.
     * @param name the retry instance's name
     * @param annotation the annotation that names it, if any
     * @return the policy
     */
    public RetryPolicy retry(String name, @Nullable Retryable annotation) {
        RetryPolicy policy;
        try {
            policy = this.resolver.retry(name, annotation);
        }
        catch (InvalidResiliencePolicyException ex) {
            throw ex.about("retry instance '" + name + "'");
        }
        this.registry.registerRetryPolicy(name, policy);
        return policy;
    }

    /**
     * Returns the policy of a retry instance named without an annotation, as
     * {@code ResilienceTemplate} names it: the policy registered for the name, which is
     * that of the annotated methods that name it once they are compiled (when the context
     * has created its singletons), or, when none is registered, the policy the properties
     * alone configure, registered then.
     * @param name the retry instance's name
     * @return the policy shared with every other user of the name
     */
    public RetryPolicy sharedRetry(String name) {
        Optional<RetryPolicy> registered = this.registry.findRetryPolicy(name);
        if (registered.isPresent()) {
            return registered.get();
        }
        retry(name, null);
        return this.registry.findRetryPolicy(name).orElseThrow();
    }

    /**
     * Returns the shared breaker of a name, creating it on first use.
     * @param name the breaker's name
     * @param annotation the annotation that names it, if any; only the first creation
     * reads it
     * @return the breaker
     */
    public CircuitBreaker circuitBreaker(String name, @Nullable CircuitGuarded annotation) {
        return this.registry.circuitBreaker(name, () -> {
            try {
                return this.resolver.circuitBreaker(name, annotation);
            }
            catch (InvalidResiliencePolicyException ex) {
                throw ex.about("circuit breaker '" + name + "'");
            }
        });
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
