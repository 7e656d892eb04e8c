package dev.resilience.logging;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.resilience.core.time.Durations;
import dev.resilience.core.time.TimeSource;

/**
 * Lets one line per subject through in each interval and counts the lines held back in
 * between, so that a breaker that refuses every call of a busy method does not write a
 * line per call. A subject is a category and an instance name; their number is bounded by
 * the application's instances, and beyond {@value #MAX_SUBJECTS} subjects the others
 * share one. Lock-free and thread-safe.
 */
public final class LineThrottle {

    static final int MAX_SUBJECTS = 1024;

    private static final String OTHERS = "";

    private final long intervalNanos;

    private final TimeSource time;

    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

    /**
     * Creates a throttle.
     * @param interval the shortest time between two lines about one subject; zero lets
     * every line through
     * @param time the clock of the intervals
     */
    public LineThrottle(Duration interval, TimeSource time) {
        this.intervalNanos = Durations.toNanos(interval);
        this.time = time;
    }

    /**
     * Asks whether a line about a subject may be written now.
     * @param subject what the line is about, such as a category and an instance name
     * @return how many lines about it were held back since the last one written, or
     * {@code -1} when this one is held back
     */
    public long pass(String subject) {
        if (this.intervalNanos <= 0) {
            return 0;
        }
        long now = this.time.nanoTime();
        Window window = this.windows.get(subject);
        if (window == null) {
            String key = (this.windows.size() < MAX_SUBJECTS) ? subject : OTHERS;
            window = this.windows.computeIfAbsent(key, (created) -> new Window(now));
        }
        long opensAt = window.opensAt.get();
        if (now - opensAt >= 0 && window.opensAt.compareAndSet(opensAt, now + this.intervalNanos)) {
            return window.heldBack.getAndSet(0);
        }
        window.heldBack.incrementAndGet();
        return -1;
    }

    private static final class Window {

        private final AtomicLong opensAt;

        private final AtomicLong heldBack = new AtomicLong();

        Window(long now) {
            this.opensAt = new AtomicLong(now);
        }

    }

}
