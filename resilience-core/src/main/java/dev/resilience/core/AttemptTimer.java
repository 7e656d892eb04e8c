package dev.resilience.core;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Interrupts a thread whose synchronous attempt overran its timeout, and lets that thread
 * find out afterwards, without leaving a stray interrupt behind.
 */
final class AttemptTimer implements Runnable {

    private static final int RUNNING = 0;

    private static final int INTERRUPTING = 1;

    private static final int INTERRUPTED = 2;

    private static final int FINISHED = 3;

    private final AtomicInteger state = new AtomicInteger(RUNNING);

    private final Thread thread;

    AttemptTimer(Thread thread) {
        this.thread = thread;
    }

    @Override
    public void run() {
        if (this.state.compareAndSet(RUNNING, INTERRUPTING)) {
            this.thread.interrupt();
            this.state.set(INTERRUPTED);
        }
    }

    /**
     * Called by the attempt's thread when the attempt ended.
     * @return {@code true} if the attempt ended in time; {@code false} if the timer
     * fired, in which case the interrupt it sent has been cleared
     */
    boolean finish() {
        if (this.state.compareAndSet(RUNNING, FINISHED)) {
            return true;
        }
        while (this.state.get() != INTERRUPTED) {
            Thread.onSpinWait();
        }
        Thread.interrupted();
        return false;
    }

}
