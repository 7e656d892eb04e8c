package dev.resilience.core;

import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The executor of pipelines that are given none: daemon threads named
 * {@code resilience-worker-<n>}, created as needed and ended after a minute idle, so that
 * a blocked application method never holds up another call's next step.
 */
final class DefaultExecutor {

    private static final Executor INSTANCE = create();

    private DefaultExecutor() {
    }

    static Executor get() {
        return INSTANCE;
    }

    private static Executor create() {
        AtomicInteger threads = new AtomicInteger();
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), (task) -> {
            Thread thread = new Thread(task, "resilience-worker-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

}
