package dev.resilience.core.bulkhead;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The work of a call a bulkhead let in, counting from inside how many run at once: the
 * peak a bulkhead must never let exceed its limit, and how many ran.
 */
public final class CallsInside {

    private final AtomicInteger inside = new AtomicInteger();

    private final AtomicInteger peak = new AtomicInteger();

    private final AtomicLong ran = new AtomicLong();

    /**
     * Runs one call: counted inside while it yields its thread once.
     * @return {@code "ok"}
     */
    public String work() {
        int now = this.inside.incrementAndGet();
        this.peak.accumulateAndGet(now, Math::max);
        Thread.yield();
        this.ran.incrementAndGet();
        this.inside.decrementAndGet();
        return "ok";
    }

    /**
     * Returns the most calls seen inside at once.
     * @return the peak
     */
    public int peak() {
        return this.peak.get();
    }

    /**
     * Returns how many calls ran.
     * @return the count
     */
    public long ran() {
        return this.ran.get();
    }

}
