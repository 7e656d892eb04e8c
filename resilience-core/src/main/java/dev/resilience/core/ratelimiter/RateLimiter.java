package dev.resilience.core.ratelimiter;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * A named rate limiter: {@link RateLimiterConfig#limit()} calls per
 * {@link RateLimiterConfig#period()}, with a burst of {@code limit}. Permits refill
 * continuously, one every {@code interval = period / limit} (rounded up to a whole
 * nanosecond), not all at once at the start of each period: with 5 per second, a limiter
 * whose burst was spent has its next permit free 200ms later. In any span of time
 * {@code t} it admits at most {@code limit + t / interval} calls: so at most
 * {@code 2 x limit} in one period that starts with the full burst free (the burst at
 * once, then one every interval), and {@code limit} per period over the long run.
 *
 * <p>
 * It is a GCRA ("generic cell rate algorithm"): its whole state is one theoretical
 * arrival time in an {@link AtomicLong}, moved by compare-and-set, so it takes no lock
 * and allocates nothing to admit a call. Time is read from the {@link TimeSource} it was
 * created with, so tests run it on a virtual clock.
 *
 * <p>
 * A caller that may wait reserves the next permit at once, when it is free within
 * {@link RateLimiterConfig#timeout()}, and then waits for its time: on its own thread
 * ({@link #acquirePermission()}) or without one ({@link #acquireAsync()}, whose future a
 * timer of the time source completes). A reservation whose wait is given up (interrupted
 * or cancelled) is given back only while it is the latest one: the theoretical arrival
 * time still ends with it, and moving it back one interval leaves the limiter exactly as
 * if the reservation had never been made. When a later caller has reserved since, its
 * wait was computed behind this reservation and cannot be shortened, so the permit stays
 * spent: the limiter may then admit one call fewer than it could, never one more.
 *
 * <p>
 * A permit is not given back when the call ends: this limits a rate, not a concurrency.
 * Thread-safe; share one instance between every caller of a limited operation.
 *
 * <p>
 * A limiter made with {@link SharedPermits} takes its permits from them instead, by the
 * same rule on the store's clock, so that every process sharing the store shares the
 * limit; the waits, the give-backs and the counts stay this limiter's. While the store
 * cannot answer, its in-memory state (above) judges the calls.
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

    private final @Nullable SharedPermits shared;

    private RateLimiter(String name, RateLimiterConfig config, TimeSource time, @Nullable SharedPermits shared) {
        this.name = name;
        this.shared = shared;
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
        return new RateLimiter(name, Objects.requireNonNull(config, "config"), Objects.requireNonNull(time, "time"),
                null);
    }

    /**
     * Creates a rate limiter that takes its permits from shared permits, and judges calls
     * by its own in-memory state, with its full burst free, while they cannot answer.
     * @param name the name, used in refusals and metrics
     * @param config the settings, the ones the permits were made with
     * @param time where the limiter reads time and sleeps
     * @param shared the permits shared with other processes
     * @return the rate limiter
     * @throws IllegalArgumentException if the name is blank
     */
    public static RateLimiter of(String name, RateLimiterConfig config, TimeSource time, SharedPermits shared) {
        if (name.isBlank()) {
            throw new IllegalArgumentException("A rate limiter needs a name");
        }
        return new RateLimiter(name, Objects.requireNonNull(config, "config"), Objects.requireNonNull(time, "time"),
                Objects.requireNonNull(shared, "shared"));
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
     * Returns the shared permits this limiter takes its permits from.
     * @return the permits, or {@code null} when it keeps them in memory only
     */
    public @Nullable SharedPermits sharedPermits() {
        return this.shared;
    }

    /**
     * Takes a permit if one is free now, without waiting.
     * @return {@code 0} if a permit was taken; otherwise, the nanoseconds after which one
     * would be free, always positive, and no permit is taken
     */
    public long tryAcquire() {
        long taken = take(this.time.nanoTime(), 0);
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
     * is given back if it is still the latest one (see the class description) and the
     * call counts as rejected.
     * @throws RateLimitedException if no permit will be free within the timeout
     * @throws InterruptedException if the thread is interrupted while it waits
     */
    public void acquirePermission() throws InterruptedException {
        long now = this.time.nanoTime();
        long taken = take(now, this.timeoutNanos);
        if (taken < 0) {
            throw refuse(-taken);
        }
        if (taken > 0) {
            try {
                this.time.sleep(Duration.ofNanos(taken));
            }
            catch (InterruptedException ex) {
                giveBack(now, taken);
                this.rejected.increment();
                throw ex;
            }
        }
        this.permitted.increment();
    }

    /**
     * Takes a permit without blocking the caller: the future completes at once when a
     * permit is free, or exceptionally at once with a {@link RateLimitedException}
     * carrying the exact wait a permit needs when that is longer than
     * {@link RateLimiterConfig#timeout()}. Otherwise the next permit is reserved now and
     * the future completes when its wait has passed, on the time source's timer, which
     * runs nothing but that completion: what depends on the future should hand its work
     * to an executor. Cancelling the future before then gives the reservation back if it
     * is still the latest one (see the class description) and counts the call as
     * rejected.
     * @return the future permit, completed with {@code null}
     */
    public CompletableFuture<@Nullable Void> acquireAsync() {
        long now = this.time.nanoTime();
        long taken = take(now, this.timeoutNanos);
        if (taken < 0) {
            return CompletableFuture.failedFuture(refuse(-taken));
        }
        if (taken == 0) {
            this.permitted.increment();
            return CompletableFuture.completedFuture(null);
        }
        Reservation reservation = new Reservation(now, taken);
        reservation.whenComplete((permit, failure) -> reservation.ended(failure != null));
        try {
            reservation.timer(this.time.scheduleHandOff(reservation::due, Duration.ofNanos(taken)));
        }
        catch (RuntimeException ex) {
            reservation.completeExceptionally(ex);
        }
        return reservation;
    }

    /**
     * Takes a permit if one is free now, and never waits whatever the timeout.
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
     * before a call does. With shared permits, as of their store's latest answer.
     * @return the free permits, from 0 to {@link RateLimiterConfig#limit()}
     */
    public int availablePermits() {
        long now = this.time.nanoTime();
        int sharedPermits = (this.shared != null) ? this.shared.availablePermits(now) : -1;
        if (sharedPermits >= 0) {
            return sharedPermits;
        }
        long owed = Math.max(0, this.arrival.get() - now);
        return (int) Math.max(0, (this.burstNanos - owed) / this.intervalNanos);
    }

    /**
     * Puts the limiter's in-memory permits back as they were created: the full burst free
     * now. The counts of {@link #permittedCalls()} and {@link #rejectedCalls()} are kept,
     * so the counters read from them never go back, and {@link SharedPermits} are not
     * touched: they live in their store. For tests, between one and the next.
     * Thread-safe: a call that waits for a permit it reserved before the reset gets it
     * when its wait ends, as it would have, and one that gives its reservation up then
     * gives nothing back to the fresh burst.
     */
    public void reset() {
        this.arrival.set(this.time.nanoTime());
    }

    /**
     * Returns how many calls were given a permit.
     * @return the count since the limiter was created
     */
    public long permittedCalls() {
        return this.permitted.sum();
    }

    /**
     * Returns how many calls were refused, or gave up their wait (interrupted or
     * cancelled).
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
     * Reserves the next permit if it is free within a wait: the shared permits decide,
     * when there are some and their store answers; otherwise the in-memory state does, on
     * a reading of the clock taken once the store has failed, which may have taken until
     * its timeout. Before refusing, the clock is read again, once; a reservation made on
     * a later reading than the caller's is never given back (its {@code now} is not the
     * caller's), so the permit stays spent: one call fewer, never one more.
     * @param now the current time
     * @param maxWaitNanos the longest wait allowed, 0 for none
     * @return the wait until the reserved permit is free, {@code >= 0}; or, when none is
     * reserved, the negated wait a permit would need, {@code < 0}
     */
    private long take(long now, long maxWaitNanos) {
        long sharedTake = (this.shared != null) ? this.shared.take(now, maxWaitNanos) : SharedPermits.UNAVAILABLE;
        if (sharedTake != SharedPermits.UNAVAILABLE) {
            return sharedTake;
        }
        if (this.shared != null) {
            // The store may have failed only at its timeout: judge on a reading taken now
            long later = this.time.nanoTime();
            if (later - now > 0) {
                now = later;
            }
        }
        boolean fresh = false;
        long current = this.arrival.get();
        while (true) {
            long next = ((current - now > 0) ? current : now) + this.intervalNanos;
            long wait = next - now - this.burstNanos;
            if (wait > maxWaitNanos) {
                if (fresh) {
                    return -wait;
                }
                // The caller may have paused since it read the clock while others took
                // permits: refuse only on a reading taken now
                fresh = true;
                long later = this.time.nanoTime();
                if (later - now > 0) {
                    now = later;
                }
                current = this.arrival.get();
                continue;
            }
            long witness = this.arrival.compareAndExchange(current, next);
            if (witness == current) {
                return Math.max(0, wait);
            }
            current = witness;
        }
    }

    /**
     * Gives back a reservation that {@link #take} made at a time with a positive wait,
     * only while it is the latest one: the theoretical arrival time it set is then still
     * {@code now + burst + wait}.
     * @param now the time the reservation was made
     * @param waitNanos its wait, {@code > 0}
     * @return whether it was given back; otherwise the permit stays spent
     */
    private boolean giveBack(long now, long waitNanos) {
        if (this.shared != null && this.shared.giveBack(now, waitNanos)) {
            return true;
        }
        long reserved = now + this.burstNanos + waitNanos;
        return this.arrival.compareAndSet(reserved, reserved - this.intervalNanos);
    }

    /**
     * A permit reserved for a caller that waits without a thread: completed by the timer
     * when its wait has passed, or given up by its caller; whichever completes it first
     * decides.
     */
    private final class Reservation extends CompletableFuture<@Nullable Void> {

        private final long reservedAt;

        private final long waitNanos;

        private volatile @Nullable ScheduledTask timer;

        Reservation(long reservedAt, long waitNanos) {
            this.reservedAt = reservedAt;
            this.waitNanos = waitNanos;
        }

        void timer(ScheduledTask task) {
            this.timer = task;
            if (isDone()) {
                task.cancel();
            }
        }

        void due() {
            if (complete(null)) {
                RateLimiter.this.permitted.increment();
            }
        }

        void ended(boolean givenUp) {
            if (!givenUp) {
                return;
            }
            ScheduledTask task = this.timer;
            if (task != null) {
                task.cancel();
            }
            giveBack(this.reservedAt, this.waitNanos);
            RateLimiter.this.rejected.increment();
        }

    }

}
