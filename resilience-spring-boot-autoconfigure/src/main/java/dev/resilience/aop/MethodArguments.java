package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

import dev.resilience.core.CallContext;
import org.jspecify.annotations.Nullable;

/**
 * The arguments of a call of an annotated method, as its {@link CallContext} carries
 * them, with the method they were passed to: a breaker's {@code failOnResult} predicate,
 * shared by every method that names the breaker, reads from them whose expression judges
 * the call ({@link BreakerResultExpressions}), overloads included, which share one
 * {@link CallContext#method() description}. A call of a method returning {@code Mono}
 * carries its subscriber's Reactor context here too, for the fallback methods whose
 * {@code Mono} it subscribes to. A read-only view of the arguments, not a copy.
 */
final class MethodArguments extends AbstractList<@Nullable Object> implements RandomAccess {

    private final Method method;

    private final @Nullable Object[] arguments;

    private final @Nullable Object subscriberContext;

    MethodArguments(Method method, @Nullable Object[] arguments) {
        this(method, arguments, null);
    }

    MethodArguments(Method method, @Nullable Object[] arguments, @Nullable Object subscriberContext) {
        this.method = method;
        this.arguments = arguments;
        this.subscriberContext = subscriberContext;
    }

    /**
     * Returns the method a call's arguments were passed to.
     * @param arguments the arguments of a call's context
     * @return the annotated method, or {@code null} for a call that no annotated method
     * made
     */
    static @Nullable Method methodOf(List<@Nullable Object> arguments) {
        return (arguments instanceof MethodArguments passed) ? passed.method : null;
    }

    /**
     * Returns what a call of a method returning {@code Mono} or {@code Flux} carries for
     * its subscriptions: the subscriber's Reactor context, or for a {@code Flux} its
     * {@link PublisherCall}.
     * @param arguments the arguments of a call's context
     * @return what the call carries, or {@code null} for any other call
     */
    static @Nullable Object subscriberContextOf(List<@Nullable Object> arguments) {
        return (arguments instanceof MethodArguments passed) ? passed.subscriberContext : null;
    }

    /**
     * Returns the Reactor context of the subscriber of a call of a method returning
     * {@code Mono} or {@code Flux}.
     * @param arguments the arguments of a call's context
     * @return the context, or {@code null} for any other call
     */
    static @Nullable Object subscriberContextViewOf(List<@Nullable Object> arguments) {
        Object carried = subscriberContextOf(arguments);
        return (carried instanceof PublisherCall call) ? call.subscriberContext() : carried;
    }

    /**
     * The state a call of a method returning a publisher keeps for its subscriptions,
     * besides its subscriber's Reactor context.
     */
    interface PublisherCall {

        /**
         * Returns the Reactor context of the call's subscriber.
         * @return the context
         */
        Object subscriberContext();

    }

    @Override
    public @Nullable Object get(int index) {
        return this.arguments[index];
    }

    @Override
    public int size() {
        return this.arguments.length;
    }

}
