package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
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
 * {@code Mono} it subscribes to. A call of a Kotlin {@code suspend} function carries its
 * value arguments, without the trailing {@code Continuation}, which is kept apart for the
 * {@code suspend} fallback methods it invokes. A read-only view of the arguments, not a
 * copy.
 */
final class MethodArguments extends AbstractList<@Nullable Object> implements RandomAccess {

    private final Method method;

    private final @Nullable Object[] arguments;

    private final @Nullable Object subscriberContext;

    private final int size;

    private final @Nullable Object continuation;

    MethodArguments(Method method, @Nullable Object[] arguments) {
        this(method, arguments, null);
    }

    MethodArguments(Method method, @Nullable Object[] arguments, @Nullable Object subscriberContext) {
        this(method, arguments, subscriberContext, arguments.length, null);
    }

    private MethodArguments(Method method, @Nullable Object[] arguments, @Nullable Object subscriberContext, int size,
            @Nullable Object continuation) {
        this.method = method;
        this.arguments = arguments;
        this.subscriberContext = subscriberContext;
        this.size = size;
        this.continuation = continuation;
    }

    /**
     * Returns the arguments of a call of a Kotlin {@code suspend} function: its value
     * arguments, the {@code Continuation} kept apart.
     * @param method the {@code suspend} function
     * @param arguments the arguments of its compiled form, the {@code Continuation} last
     * @param subscriberContext the Reactor context of the subscriber of the call
     * @return the arguments
     */
    static MethodArguments ofSuspending(Method method, @Nullable Object[] arguments,
            @Nullable Object subscriberContext) {
        return new MethodArguments(method, arguments, subscriberContext, arguments.length - 1,
                arguments[arguments.length - 1]);
    }

    /**
     * Returns the {@code Continuation} of a call of a Kotlin {@code suspend} function,
     * whose coroutine context its {@code suspend} fallback methods run in.
     * @param arguments the arguments of a call's context
     * @return the {@code Continuation}, or {@code null} for any other call
     */
    static @Nullable Object continuationOf(List<@Nullable Object> arguments) {
        return (arguments instanceof MethodArguments passed) ? passed.continuation : null;
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

        /**
         * Makes the call's observation the one the call's subscriptions find in their
         * Reactor context.
         * @param observation the call's observation, or {@code null} when it has none
         * @return this call
         */
        PublisherCall observedBy(@Nullable Object observation);

    }

    @Override
    public @Nullable Object get(int index) {
        return this.arguments[Objects.checkIndex(index, this.size)];
    }

    @Override
    public int size() {
        return this.size;
    }

}
