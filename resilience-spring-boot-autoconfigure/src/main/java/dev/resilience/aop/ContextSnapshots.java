package dev.resilience.aop;

import dev.resilience.core.CarriedContext;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The caller's context as Micrometer's context-propagation captures it: the values of
 * every {@code ThreadLocalAccessor} of the global {@link ContextRegistry} (the current
 * observation, and the MDC when the application registers an accessor for it), read on
 * the caller's thread, with the values of a {@code Mono} subscriber's Reactor context
 * over them. The snapshot is restored around each step and the thread's own values put
 * back after it. The only class that names context-propagation's types: it is loaded only
 * when that library is on the class path. A snapshot that fails to be captured or
 * restored is logged, and the call goes on without it.
 */
final class ContextSnapshots implements CallerContexts {

    /** The class whose presence tells that context-propagation is on the class path. */
    static final String SNAPSHOT_FACTORY = "io.micrometer.context.ContextSnapshotFactory";

    private static final Log logger = LogFactory.getLog(ContextSnapshots.class);

    private final ContextSnapshotFactory factory = ContextSnapshotFactory.builder().build();

    @Override
    public CarriedContext capture(@Nullable Object subscriberContext) {
        ContextSnapshot snapshot;
        try {
            snapshot = (subscriberContext != null) ? this.factory.captureAll(subscriberContext)
                    : this.factory.captureAll();
        }
        catch (RuntimeException ex) {
            logger.warn("The context of a call could not be captured; its later steps run without it", ex);
            return CarriedContext.NONE;
        }
        return (step) -> () -> restoredAround(snapshot, step);
    }

    private static void restoredAround(ContextSnapshot snapshot, Runnable step) {
        ContextSnapshot.Scope scope;
        try {
            scope = snapshot.setThreadLocals();
        }
        catch (RuntimeException ex) {
            logger.warn("The context of a call could not be restored; this step runs without it", ex);
            step.run();
            return;
        }
        try {
            step.run();
        }
        finally {
            try {
                scope.close();
            }
            catch (RuntimeException ex) {
                logger.warn("The thread's own context could not be put back after a step of a call", ex);
            }
        }
    }

}
