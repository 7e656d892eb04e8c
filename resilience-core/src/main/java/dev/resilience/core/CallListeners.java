package dev.resilience.core;

import java.util.List;
import java.util.function.Consumer;

/**
 * Tells a call's listeners, the pipeline's then the call's own, of its steps; a listener
 * that throws is logged and the call goes on.
 */
final class CallListeners {

    private static final System.Logger logger = System.getLogger(ResiliencePipeline.class.getName());

    private CallListeners() {
    }

    /**
     * Tells the listeners a call ended, without a capturing lambda: this runs on every
     * call.
     */
    static void completed(List<ExecutionListener> listeners, ExecutionListener own, String name,
            ExecutionResult<?> result) {
        for (int i = 0; i < listeners.size(); i++) {
            completed(listeners.get(i), name, result);
        }
        if (own != ExecutionListener.NONE) {
            completed(own, name, result);
        }
    }

    private static void completed(ExecutionListener listener, String name, ExecutionResult<?> result) {
        try {
            listener.onComplete(name, result);
        }
        catch (RuntimeException ex) {
            logger.log(System.Logger.Level.WARNING, "Execution listener failed", ex);
        }
    }

    static void notify(List<ExecutionListener> listeners, ExecutionListener own, Consumer<ExecutionListener> event) {
        for (ExecutionListener listener : listeners) {
            notifySafely(listener, event);
        }
        notifySafely(own, event);
    }

    private static void notifySafely(ExecutionListener listener, Consumer<ExecutionListener> event) {
        if (listener == ExecutionListener.NONE) {
            return;
        }
        try {
            event.accept(listener);
        }
        catch (RuntimeException ex) {
            logger.log(System.Logger.Level.WARNING, "Execution listener failed", ex);
        }
    }

}
