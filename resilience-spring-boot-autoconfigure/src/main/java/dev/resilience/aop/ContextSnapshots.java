package dev.resilience.aop;

import java.util.ArrayList;
import java.util.List;

import dev.resilience.core.CarriedContext;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.context.ThreadLocalAccessor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The caller's context as Micrometer's context-propagation captures it: the values of
 * every {@code ThreadLocalAccessor} of the global {@link ContextRegistry} (the current
 * observation, and the MDC when the application registers an accessor for it), read on
 * the caller's thread, with the values of a {@code Mono} subscriber's Reactor context
 * over them. The snapshot is restored around each step and the thread's own values put
 * back after it; a value the caller had none of is cleared for the step, so that what an
 * earlier task left on the thread is never seen as the caller's. The only class that
 * names context-propagation's types: it is loaded only when that library is on the class
 * path. A snapshot that fails to be captured is logged, and the call goes on without it;
 * the snapshot is restored, and put back, one accessor at a time, so that an accessor
 * that fails is logged and skipped while the others are restored and put back.
 */
final class ContextSnapshots implements CallerContexts {

    /** The class whose presence tells that context-propagation is on the class path. */
    static final String SNAPSHOT_FACTORY = "io.micrometer.context.ContextSnapshotFactory";

    private static final Log logger = LogFactory.getLog(ContextSnapshots.class);

    private final ContextSnapshotFactory factory = ContextSnapshotFactory.builder().clearMissing(true).build();

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
        List<ContextSnapshot.Scope> scopes = restore(snapshot);
        try {
            step.run();
        }
        finally {
            putBack(scopes);
        }
    }

    /**
     * Restores the snapshot one accessor at a time, so that an accessor that fails leaves
     * the others restored, and so put back after the step.
     */
    private static List<ContextSnapshot.Scope> restore(ContextSnapshot snapshot) {
        List<ThreadLocalAccessor<?>> accessors = ContextRegistry.getInstance().getThreadLocalAccessors();
        List<ContextSnapshot.Scope> scopes = new ArrayList<>(accessors.size());
        for (ThreadLocalAccessor<?> accessor : accessors) {
            Object key = accessor.key();
            try {
                scopes.add(snapshot.setThreadLocals(key::equals));
            }
            catch (RuntimeException ex) {
                logger.warn("The value '" + key + "' of the context of a call could not be restored; "
                        + "this step runs without it", ex);
            }
        }
        return scopes;
    }

    private static void putBack(List<ContextSnapshot.Scope> scopes) {
        for (int i = scopes.size() - 1; i >= 0; i--) {
            try {
                scopes.get(i).close();
            }
            catch (RuntimeException ex) {
                logger.warn("A value of the thread's own context could not be put back after a step of a call", ex);
            }
        }
    }

}
