package dev.resilience.core.time;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link TimeSource} whose time moves only when told to, for tests and simulations.
 *
 * <p>
 * {@link #sleep} does not block: it advances the virtual time by the requested duration,
 * records it and returns. Scheduled tasks run on the thread that advances the time past
 * their due time, in due-time order, with the clock set to their due time while they run.
 * Thread-safe.
 */
public final class VirtualTimeSource implements TimeSource {

    private final ReentrantLock lock = new ReentrantLock();

    private final PriorityQueue<Entry> queue = new PriorityQueue<>();

    private final List<Duration> sleeps = new ArrayList<>();

    private final Instant origin;

    private long nanos;

    private long sequence;

    /**
     * Creates a virtual time source starting at 2026-01-01T00:00:00Z.
     */
    public VirtualTimeSource() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    /**
     * Creates a virtual time source starting at the given instant.
     * @param origin the wall-clock instant at virtual time zero
     */
    public VirtualTimeSource(Instant origin) {
        this.origin = origin;
    }

    @Override
    public long nanoTime() {
        this.lock.lock();
        try {
            return this.nanos;
        }
        finally {
            this.lock.unlock();
        }
    }

    @Override
    public Instant now() {
        return this.origin.plusNanos(nanoTime());
    }

    /**
     * Records the sleep and advances the time by it; it never blocks.
     * @param duration how long the caller asked to sleep
     * @throws InterruptedException if the calling thread is interrupted
     */
    @Override
    public void sleep(Duration duration) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        this.lock.lock();
        try {
            this.sleeps.add(duration);
        }
        finally {
            this.lock.unlock();
        }
        advance(duration);
    }

    @Override
    public ScheduledTask schedule(Runnable task, Duration delay) {
        this.lock.lock();
        try {
            Entry entry = new Entry(Durations.later(this.nanos, Math.max(0, Durations.toNanos(delay))), this.sequence++,
                    task);
            this.queue.add(entry);
            return () -> cancel(entry);
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Moves the time forward, running every task that falls due on the way.
     * @param duration how far to move; negative durations are refused
     */
    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("Virtual time cannot move backwards: " + duration);
        }
        long target;
        this.lock.lock();
        try {
            target = Durations.later(this.nanos, Durations.toNanos(duration));
        }
        finally {
            this.lock.unlock();
        }
        runDueTasks(target);
    }

    /**
     * Moves the time forward to the earliest pending task, if it is not due yet, and runs
     * every task due by then, as {@link #advance} does: a step for a caller that waits
     * for scheduled work (a backoff timer, a delayed attempt) without knowing when it
     * falls due.
     * @return {@code true} if a task was pending, {@code false} if none was and the time
     * did not move
     */
    public boolean advanceToNextTask() {
        long target;
        this.lock.lock();
        try {
            Entry head = this.queue.peek();
            if (head == null) {
                return false;
            }
            target = head.dueNanos;
        }
        finally {
            this.lock.unlock();
        }
        runDueTasks(target);
        return true;
    }

    /**
     * Returns every duration passed to {@link #sleep} so far, in order.
     * @return a copy of the recorded sleeps
     */
    public List<Duration> sleeps() {
        this.lock.lock();
        try {
            return List.copyOf(this.sleeps);
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Returns how many scheduled tasks have neither run nor been cancelled.
     * @return the number of pending tasks
     */
    public int pendingTasks() {
        this.lock.lock();
        try {
            return this.queue.size();
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Returns the time elapsed since virtual time zero.
     * @return the elapsed virtual time
     */
    public Duration elapsed() {
        return Duration.ofNanos(nanoTime());
    }

    private void runDueTasks(long target) {
        while (true) {
            Entry due;
            this.lock.lock();
            try {
                Entry head = this.queue.peek();
                if (head == null || head.dueNanos > target) {
                    this.nanos = Math.max(this.nanos, target);
                    return;
                }
                due = this.queue.poll();
                this.nanos = Math.max(this.nanos, due.dueNanos);
            }
            finally {
                this.lock.unlock();
            }
            due.task.run();
        }
    }

    private boolean cancel(Entry entry) {
        this.lock.lock();
        try {
            return this.queue.remove(entry);
        }
        finally {
            this.lock.unlock();
        }
    }

    private record Entry(long dueNanos, long sequence, Runnable task) implements Comparable<Entry> {

        @Override
        public int compareTo(Entry other) {
            int byTime = Long.compare(this.dueNanos, other.dueNanos);
            return (byTime != 0) ? byTime : Long.compare(this.sequence, other.sequence);
        }
    }

}
