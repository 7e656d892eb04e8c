package dev.resilience.autoconfigure;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;

/**
 * The executor of asynchronous work as the engine sees it: it hands each step to the
 * application's executor and remembers it until it starts. When the context closes, after
 * that executor (which is destroyed first), the steps it never started, because it
 * dropped its queue or was shut down with them, are cancelled, and the engine ends their
 * calls: a future returned by a protected method completes even when the application
 * stops while its next step waits.
 */
final class AsyncStepTracker implements DisposableBean {

    private final @Nullable Executor executor;

    private final Set<Step> waiting = ConcurrentHashMap.newKeySet();

    AsyncStepTracker(@Nullable Executor executor) {
        this.executor = executor;
    }

    /**
     * Returns the executor that pipelines hand their steps to.
     * @return the tracking executor, or {@code null} when the engine's own pool runs the
     * steps
     */
    @Nullable Executor executor() {
        return (this.executor != null) ? this::execute : null;
    }

    private void execute(Runnable task) {
        Step step = new Step(task);
        this.waiting.add(step);
        try {
            this.executor.execute(step);
        }
        catch (RuntimeException ex) {
            this.waiting.remove(step);
            throw ex;
        }
    }

    @Override
    public void destroy() {
        for (Step step : this.waiting) {
            if (this.waiting.remove(step) && step.task instanceof Future<?> future) {
                future.cancel(false);
            }
        }
    }

    private final class Step implements Runnable {

        private final Runnable task;

        Step(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            if (AsyncStepTracker.this.waiting.remove(this)) {
                this.task.run();
            }
        }

    }

}
