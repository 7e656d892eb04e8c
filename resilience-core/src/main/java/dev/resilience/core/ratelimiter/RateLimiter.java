package dev.resilience.core.ratelimiter;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import dev.resilience.core.time.TimeSource;

/**
 * A named rate limiter: at most {@link RateLimiterConfig#limit()} calls per
 * {@link RateLimiterConfig#period()}, with a burst of {@code limit}. Permits refill
 * continuously, one every {@code period / limit} (rounded up to a whole nanosecond), not
 * all at once at the start of each period: with 5 per second, a limiter whose burst was
 * spent has its next permit free 200ms later.
 *
 * <p>
 * It is a GCRA ("generic cell rate algorithm"): its whole state is one theoretical
 * arrival time in an {@link AtomicLong}, moved by compare-and-set, so it takes no lock
 * and allocates nothing to admit a call. Time is read from the {@link TimeSource} it was
 * created with, so tests run it on a virtual clock.
 *
 * <p>
 * A permit is not given back when the call ends: this limits a rate, not a concurrency.
 * Thread-safe; share one instance between every caller of a limited operation.
 */
public final class RateLimiter {

    private final String name;

    private final RateLimiterConfig config;

    private final TimeSource time;

    private final long intervalNanos;

    private final long burstNanos;

    private final long timeoutNanos;

    /** The theoretical arrival time: when the limiter would be back to a full burst. */
    private final AtomicLong arrival;

    private final LongAdder permitted = new LongAdder();

    private final LongAdder rejected = new LongAdder();

    private RateLimiter(String name, RateLimiterConfig config, TimeSource time) {
        this.name = name;
        this.config = config;
        this.time = time;
        long periodNanos = config.period().toNanos();
        this.intervalNanos = (periodNanos + config.limit() - 1) / config.limit();
        this.burstNanos = this.intervalNanos * config.limit();
        this.timeoutNanos = config.timeout().toNanos();
        this.arrival = new AtomicLong(time.nanoTime());
    }

    /**
     * Creates a rate limiter with its full burst free.
     * @param name the name, used in refusals and metrics
     * @param config the settings
     * @param time where the limiter reads time and sleeps
     * @return the rate limiter
     * @throws IllegalArgumentException if the name is blank
     */
    public static RateLimiter of(String name, RateLimiterConfig config, TimeSource time) {
        if (name.isBlank()) {
            throw new IllegalArgumentException("A rate limiter needs a name");
        }
        return new RateLimiter(name, Objects.requireNonNull(config, "config"), Objects.requireNonNull(time, "time"));
    }

    /**
     * Returns the name.
     * @return the name
     */
    public String name() {
        return this.name;
    }

    /**
     * Returns the settings.
     * @return the settings
     */
    public RateLimiterConfig config() {
        return this.config;
    }

    /**
     * Takes a permit if one is free now, without waiting.
     * @return {@code 0} if a permit was taken; otherwise, the nanoseconds after which one
     * would be free, always positive, and no permit is taken
     */
    public long tryAcquire() {
        long taken = take(0);
        if (taken < 0) {
            this.rejected.increment();
            return -taken;
        }
        this.permitted.increment();
        return 0;
    }

    /**
     * Takes a permit, waiting for it up to {@link RateLimiterConfig#timeout()} on the
     * caller's thread. A permit that will be free within the timeout is reserved at once
     * and the thread sleeps until it is; when that sleep is interrupted, the reservation
     * is given back (a later caller may have been told to wait longer than it then needs,
     * never shorter) and the call counts as rejected.
     * @throws RateLimitedException if no permit will be free within the timeout
     * @throws InterruptedException if the thread is interrupted while it waits
     */
    public void acquirePermission() throws InterruptedException {
        long taken = take(this.timeoutNanos);
        if (taken < 0) {
            throw refuse(-taken);
        }
        if (taken > 0) {
            try {
                this.time.sleep(Duration.ofNanos(taken));
            }
            catch (InterruptedException ex) {
                this.arrival.addAndGet(-this.intervalNanos);
                this.rejected.increment();
                throw ex;
            }
        }
        this.permitted.increment();
    }

    /**
     * Takes a permit if one is free now, and never waits whatever the timeout: for a
     * caller that must not block a thread, such as an asynchronous call.
     * @throws RateLimitedException if no permit is free now, carrying the exact wait
     * after which one would be
     */
    public void acquirePermissionWithoutWaiting() {
        long wait = tryAcquire();
        if (wait > 0) {
            throw new RateLimitedException(this.name, Duration.ofNanos(wait));
        }
    }

    /**
     * Estimates how many permits are free now, for a gauge: another caller may take them
     * before a call does.
     * @return the free permits, from 0 to {@link RateLimiterConfig#limit()}
     */
    public int availablePermits() {
        long now = this.time.nanoTime();
        long owed = Math.max(0, this.arrival.get() - now);
        return (int) Math.max(0, (this.burstNanos - owed) / this.intervalNanos);
    }

    /**
     * Returns how many calls were given a permit.
     * @return the count since the limiter was created
     */
    public long permittedCalls() {
        return this.permitted.sum();
    }

    /**
     * Returns how many calls were refused, or interrupted while they waited.
     * @return the count since the limiter was created
     */
    public long rejectedCalls() {
        return this.rejected.sum();
    }

    @Override
    public String toString() {
        return "RateLimiter[" + this.name + "]";
    }

    private RateLimitedException refuse(long waitNanos) {
        this.rejected.increment();
        return new RateLimitedException(this.name, Duration.ofNanos(waitNanos));
    }

    /**
     * Reserves the next permit if it is free within a wait.
     * @param maxWaitNanos the longest wait allowed, 0 for none
     * @return the wait until the reserved permit is free, {@code >= 0}; or, when none is
     * reserved, the negated wait a permit would need, {@code < 0}
     */
    private long take(long maxWaitNanos) {
        long now = this.time.nanoTime();
        while (true) {
            long current = this.arrival.get();
            long next = ((current - now > 0) ? current : now) + this.intervalNanos;
            long wait = next - now - this.burstNanos;
            if (wait > maxWaitNanos) {
                return -wait;
            }
            if (this.arrival.compareAndSet(current, next)) {
                return Math.max(0, wait);
            }
        }
    }

}
