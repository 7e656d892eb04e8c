package dev.resilience.aop;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import dev.resilience.core.CarriedContext;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.retry.RetryEvent;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Makes every protected call a Micrometer {@link Observation} named
 * {@code resilience.calls}, with the low-cardinality keys {@code name}, {@code status}
 * and {@code fallback}, and an event per retry and per fallback tried. The
 * {@code resilience.calls} timer comes from these observations; with a tracing bridge, so
 * does a span per call. The call's observation is in scope while the call runs on its
 * caller's thread, and while each of its later steps runs on another thread (an attempt
 * after a backoff, a fallback, a hedge, a listener), so that the spans its attempts and
 * fallbacks make are children of the call's; each scope is closed when its step returns
 * or throws. With Micrometer's context-propagation on the class path, those later steps
 * also run with the context captured from the caller ({@link CallerContexts}): the
 * logging context (MDC) and other values of the registered thread-local accessors. A call
 * that ends without a value stops its observation with its final error. Each observation
 * is stopped exactly once, however the call ends, even when a handler failed to start it:
 * the handlers that started before the failing one end what they started (a long-task
 * timer's sample, a span). With a no-op registry and nothing to capture a call costs
 * nothing here.
 */
public final class CallObserver {

    /** The name of the observation, and so of the timer. */
    public static final String OBSERVATION_NAME = "resilience.calls";

    /** The event of a retry; meter handlers that count events should ignore it. */
    public static final String RETRY_EVENT = "retry";

    /**
     * The event of a fallback tried; meter handlers that count events should ignore it.
     */
    public static final String FALLBACK_EVENT = "fallback";

    private static final Log logger = LogFactory.getLog(CallObserver.class);

    private final ObservationRegistry registry;

    private final CallerContexts callerContexts;

    private final Call unobserved;

    /**
     * Creates an observer; it carries the caller's context to a call's later steps when
     * Micrometer's context-propagation is on the class path.
     * @param registry where observations are made
     */
    public CallObserver(ObservationRegistry registry) {
        this(registry, CallerContexts.detect(CallObserver.class.getClassLoader()));
    }

    CallObserver(ObservationRegistry registry, CallerContexts callerContexts) {
        this.registry = registry;
        this.callerContexts = callerContexts;
        this.unobserved = new Call(null, ObservationRegistry.NOOP);
    }

    /**
     * Captures, on the caller's thread, the caller's context that a call's later steps
     * carry to the threads that run them: its thread-local values, and for a {@code Mono}
     * the values of its subscriber's Reactor context over them.
     * @param subscriberContext the Reactor context of the call's subscriber, or
     * {@code null} for a call made by a thread
     * @return the caller's context, {@link CarriedContext#NONE} when nothing is captured
     */
    CarriedContext capture(@Nullable Object subscriberContext) {
        return this.callerContexts.capture(subscriberContext);
    }

    Call start(String name) {
        if (this.registry.isNoop()) {
            return this.unobserved;
        }
        Observation observation;
        try {
            observation = Observation.createNotStarted(OBSERVATION_NAME, this.registry)
                .contextualName(name)
                .lowCardinalityKeyValue("name", name);
        }
        catch (RuntimeException ex) {
            logger.warn("The observation of a call of '" + name + "' could not be made", ex);
            return this.unobserved;
        }
        try {
            observation.start();
        }
        catch (RuntimeException ex) {
            logger.warn("An observation handler failed to start the observation of a call of '" + name + "'", ex);
        }
        return new Call(observation, this.registry);
    }

    /**
     * One observed call; the listener records retries and fallbacks as events.
     */
    static final class Call implements ExecutionListener {

        private final @Nullable Observation observation;

        private final ObservationRegistry registry;

        private final AtomicBoolean stopped = new AtomicBoolean();

        private Call(@Nullable Observation observation, ObservationRegistry registry) {
            this.observation = observation;
            this.registry = registry;
        }

        /**
         * Returns the call's observation.
         * @return the observation, or {@code null} when the call is not observed
         */
        @Nullable Observation observation() {
            return this.observation;
        }

        ExecutionListener listener() {
            return (this.observation != null) ? this : ExecutionListener.NONE;
        }

        /**
         * Stops the observation with the call's outcome, once; a handler that fails while
         * it stops is logged and never changes the call's outcome.
         */
        <T> ExecutionResult<T> stop(ExecutionResult<T> result) {
            Observation observed = this.observation;
            if (observed != null && this.stopped.compareAndSet(false, true)) {
                try {
                    observed.lowCardinalityKeyValue("status", result.status().name().toLowerCase(Locale.ROOT))
                        .lowCardinalityKeyValue("fallback", Boolean.toString(result.fallbackUsed()));
                    Throwable error = result.error();
                    if (error != null) {
                        observed.error(error);
                    }
                    observed.stop();
                }
                catch (RuntimeException ex) {
                    logger.warn("An observation handler failed to stop the observation of a call", ex);
                }
            }
            return result;
        }

        void fail(Throwable error) {
            Observation observed = this.observation;
            if (observed != null && this.stopped.compareAndSet(false, true)) {
                try {
                    observed.lowCardinalityKeyValue("status", "error")
                        .lowCardinalityKeyValue("fallback", "false")
                        .error(error)
                        .stop();
                }
                catch (RuntimeException ex) {
                    logger.warn("An observation handler failed to stop the observation of a call", ex);
                }
            }
        }

        /**
         * Returns the call's steps run with its observation in scope on the thread that
         * calls the supplier.
         * @param steps what runs the call's steps on this thread
         */
        <T> Supplier<T> scoped(Supplier<T> steps) {
            Observation observed = this.observation;
            if (observed == null) {
                return steps;
            }
            return () -> {
                Scope scope = openScope(observed);
                try {
                    return steps.get();
                }
                finally {
                    scope.close();
                }
            };
        }

        /**
         * Returns what the call's later steps carry to the threads that run them: the
         * caller's context, with the call's observation in scope over it.
         * @param caller the caller's context ({@link CallObserver#capture})
         * @return what the call's context carries
         */
        CarriedContext carried(CarriedContext caller) {
            Observation observed = this.observation;
            if (observed == null) {
                return caller;
            }
            if (caller == CarriedContext.NONE) {
                return (step) -> () -> inScope(observed, step);
            }
            return (step) -> caller.around(() -> inScope(observed, step));
        }

        private void inScope(Observation observed, Runnable step) {
            Scope scope = openScope(observed);
            try {
                step.run();
            }
            finally {
                scope.close();
            }
        }

        /**
         * Opens the observation's scope; a handler that fails while the scope opens or
         * closes is logged, and the thread's current observation is put back as it was.
         */
        private Scope openScope(Observation observed) {
            Observation.@Nullable Scope previous = this.registry.getCurrentObservationScope();
            try {
                Observation.Scope opened = observed.openScope();
                return () -> {
                    try {
                        opened.close();
                    }
                    catch (RuntimeException ex) {
                        logger.warn("An observation handler failed to close the scope of a call", ex);
                        this.registry.setCurrentObservationScope(previous);
                    }
                };
            }
            catch (RuntimeException ex) {
                logger.warn("An observation handler failed to open the scope of a call", ex);
                this.registry.setCurrentObservationScope(previous);
                return () -> {
                };
            }
        }

        @Override
        public void onRetry(String name, RetryEvent event) {
            if (this.observation != null) {
                this.observation.event(Observation.Event.of(RETRY_EVENT, "retry after attempt " + event.attempt()));
            }
        }

        @Override
        public void onFallback(String name, String fallbackName, boolean success) {
            if (this.observation != null) {
                this.observation.event(Observation.Event.of(FALLBACK_EVENT, "fallback " + fallbackName));
            }
        }

    }

    /**
     * An opened scope, closed without a checked exception.
     */
    private interface Scope {

        void close();

    }

}
