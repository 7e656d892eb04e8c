package dev.resilience.core;

import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.time.VirtualTimeSource;

/** A virtual clock that counts how often it is read. */
final class CountingReads extends DelegatingTimer {

    final AtomicInteger reads = new AtomicInteger();

    CountingReads(VirtualTimeSource clock) {
        super(clock);
    }

    @Override
    public long nanoTime() {
        this.reads.incrementAndGet();
        return super.nanoTime();
    }

}
