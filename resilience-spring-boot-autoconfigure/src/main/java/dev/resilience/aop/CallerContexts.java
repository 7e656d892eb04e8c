package dev.resilience.aop;

import dev.resilience.core.CarriedContext;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Captures, once per call and on the caller's thread, the context that the call's later
 * steps carry to the threads that run them ({@link CarriedContext}).
 */
@FunctionalInterface
interface CallerContexts {

    /** Captures nothing. */
    CallerContexts NONE = (subscriberContext) -> CarriedContext.NONE;

    /**
     * Captures the caller's context.
     * @param subscriberContext the Reactor context of a {@code Mono}'s subscriber, whose
     * values are captured over the thread's own; {@code null} for a call made by a thread
     * @return what the call carries, {@link CarriedContext#NONE} for nothing
     */
    CarriedContext capture(@Nullable Object subscriberContext);

    /**
     * Returns the capture of Micrometer's context-propagation when it is on the class
     * path, and none otherwise.
     * @param classLoader where to look for it
     * @return the capture
     */
    static CallerContexts detect(@Nullable ClassLoader classLoader) {
        return ClassUtils.isPresent(ContextSnapshots.SNAPSHOT_FACTORY, classLoader) ? new ContextSnapshots() : NONE;
    }

}
