package dev.resilience.actuate.endpoint;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The runtime hints of the endpoints in a native image: Jackson binding of every
 * descriptor they answer with, the records nested in them included, whether an operation
 * returns it or wraps it in a {@code WebEndpointResponse}.
 */
public final class ResilienceEndpointsRuntimeHints implements RuntimeHintsRegistrar {

    private static final Class<?>[] DESCRIPTORS = { CircuitBreakersEndpoint.CircuitBreakersDescriptor.class,
            CircuitBreakersEndpoint.CircuitBreakerDetailsDescriptor.class, RetriesEndpoint.RetriesDescriptor.class,
            BulkheadsEndpoint.BulkheadsDescriptor.class, RateLimitersEndpoint.RateLimitersDescriptor.class,
            DeadLettersEndpoint.DeadLettersDescriptor.class, DeadLettersEndpoint.DeadLetterDescriptor.class,
            DeadLettersEndpoint.RedriveDescriptor.class, ChaosEndpoint.ChaosInstancesDescriptor.class,
            ChaosEndpoint.ChaosInstanceDescriptor.class };

    /**
     * Registers binding hints for the endpoints' descriptors.
     * @param hints the hints to add to
     * @param classLoader the class loader, unused
     */
    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), DESCRIPTORS);
    }

}
