package dev.resilience.core;

import dev.resilience.core.time.VirtualTimeSource;

/**
 * A virtual clock whose {@link #nanoTime()} readings start just before
 * {@link Long#MAX_VALUE} and wrap past it as the time moves on, as
 * {@link System#nanoTime()} may: only differences between readings are meaningful.
 */
final class ClockNearWrap extends DelegatingTimer {

    private final long offset;

    ClockNearWrap(VirtualTimeSource clock, long nanosBeforeWrap) {
        super(clock);
        this.offset = Long.MAX_VALUE - nanosBeforeWrap;
    }

    @Override
    public long nanoTime() {
        return this.offset + this.clock.nanoTime();
    }

}
