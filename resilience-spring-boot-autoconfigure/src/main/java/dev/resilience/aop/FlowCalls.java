package dev.resilience.aop;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;

import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * Where a Kotlin {@code Flow} meets the {@code Flux} path ({@link FluxCalls},
 * {@code docs/design/reactive.md}): the {@code Flow} a method returns becomes a
 * {@code Flux} for each attempt to subscribe to, and the {@code Flux} of the call becomes
 * the {@code Flow} the caller collects. Both through the adapter Spring's
 * {@link ReactiveAdapterRegistry} holds for {@code Flow} when kotlinx-coroutines-reactor
 * is on its class path ({@code asFlux} and {@code asFlow}), so no Kotlin type is named
 * here: both ends stay cold, cancellation crosses them as a cancelled subscription, and
 * demand as requests.
 */
final class FlowCalls {

    private static final @Nullable ReactiveAdapter FLOWS = find();

    private FlowCalls() {
    }

    /**
     * Returns Spring's adapter of Kotlin's {@code Flow}.
     * @return the adapter, or {@code null} when Spring's registry has none (no
     * kotlinx-coroutines-reactor or no Reactor on its class path)
     */
    static @Nullable ReactiveAdapter adapter() {
        return FLOWS;
    }

    private static @Nullable ReactiveAdapter find() {
        ClassLoader classLoader = ReactiveAdapterRegistry.class.getClassLoader();
        if (!ClassUtils.isPresent(ReturnKind.FLOW_TYPE, classLoader)) {
            return null;
        }
        Class<?> flow = ClassUtils.resolveClassName(ReturnKind.FLOW_TYPE, classLoader);
        ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(flow);
        return (adapter != null && adapter.getReactiveType() == flow) ? adapter : null;
    }

    /**
     * Returns the {@code Flow} the caller collects: each collection subscribes to the
     * call's {@code Flux}, so it is one call.
     * @param calls the cold {@code Flux} of the calls ({@link FluxCalls#of})
     * @return the cold {@code Flow} of the calls
     */
    static Object asFlow(Object calls) {
        return adapter(calls).fromPublisher((Publisher<?>) calls);
    }

    /**
     * Returns what a method returning {@code Flow} returned as a publisher to subscribe
     * to: each subscription collects the {@code Flow}.
     * @param returned the {@code Flow} the method returned
     * @param what the method, for the error of a {@code null} {@code Flow}
     * @return the publisher of the {@code Flow}
     * @throws NullPointerException when the method returned {@code null}
     */
    static Object asPublisher(@Nullable Object returned, String what) {
        if (returned == null) {
            throw new NullPointerException(what + " returned null instead of a Flow");
        }
        return adapter(returned).toPublisher(returned);
    }

    /**
     * Returns what a fallback of a method returning {@code Flow} returned, with a
     * {@code Flow} as a publisher of its elements and any other value as it is.
     * @param value what the fallback returned
     * @param declaredFlow whether the fallback was declared to return a {@code Flow}, so
     * that {@code null} is its failure
     * @param what the fallback, for the error of a {@code null} {@code Flow}
     * @return the publisher of a {@code Flow}, else the value itself
     * @throws NullPointerException when a fallback declared to return a {@code Flow}
     * returned {@code null}
     */
    static @Nullable Object fallback(@Nullable Object value, boolean declaredFlow, String what) {
        if (declaredFlow) {
            return asPublisher(value, what);
        }
        return (value != null && FLOWS != null && FLOWS.getReactiveType().isInstance(value)) ? FLOWS.toPublisher(value)
                : value;
    }

    private static ReactiveAdapter adapter(Object value) {
        ReactiveAdapter adapter = FLOWS;
        if (adapter == null) {
            throw new IllegalStateException("Spring's ReactiveAdapterRegistry has no adapter of Kotlin's Flow for a "
                    + value.getClass().getName() + ": kotlinx-coroutines-reactor is not on its class path");
        }
        return adapter;
    }

}
