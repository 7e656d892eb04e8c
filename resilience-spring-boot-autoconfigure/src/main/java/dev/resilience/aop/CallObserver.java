package dev.resilience.aop;

import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

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
 * does a span per call. Each attempt runs with the call's observation in scope, on the
 * thread that runs it, so that the spans the method makes are children of the call's; the
 * scope is closed when the attempt returns or throws. A call that ends without a value
 * stops its observation with its final error. Each observation is stopped exactly once,
 * however the call ends. With a no-op registry a call costs nothing here.
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

    private static final Call UNOBSERVED = new Call(null, ObservationRegistry.NOOP);

    private final ObservationRegistry registry;

    /**
     * Creates an observer.
     * @param registry where observations are made
     */
    public CallObserver(ObservationRegistry registry) {
        this.registry = registry;
    }

    Call start(String name) {
        if (this.registry.isNoop()) {
            return UNOBSERVED;
        }
        try {
            Observation observation = Observation.createNotStarted(OBSERVATION_NAME, this.registry)
                .contextualName(name)
                .lowCardinalityKeyValue("name", name)
                .start();
            return new Call(observation, this.registry);
        }
        catch (RuntimeException ex) {
            logger.warn("An observation handler failed to start the observation of a call of '" + name + "'", ex);
            return UNOBSERVED;
        }
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
         * Returns the attempt run with the call's observation in scope on the thread that
         * runs it.
         */
        <T> Callable<T> scoped(Callable<T> attempt) {
            Observation observed = this.observation;
            if (observed == null) {
                return attempt;
            }
            return () -> {
                Scope scope = openScope(observed);
                try {
                    return attempt.call();
                }
                finally {
                    scope.close();
                }
            };
        }

        /**
         * Returns the attempt run with the call's observation in scope on the thread that
         * calls the supplier, while it makes the attempt's stage.
         */
        <T> Supplier<T> scoped(Supplier<T> attempt) {
            Observation observed = this.observation;
            if (observed == null) {
                return attempt;
            }
            return () -> {
                Scope scope = openScope(observed);
                try {
                    return attempt.get();
                }
                finally {
                    scope.close();
                }
            };
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
