package dev.resilience.core.bulkhead;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import dev.resilience.core.time.Durations;
import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * A named limit of concurrent calls: at most {@link #limit()} permits are out at once. A
 * call beyond it waits its turn, first come first served, for up to
 * {@link BulkheadConfig#maxWait()}, and is then refused with a
 * {@link BulkheadFullException}; a new call never overtakes one that waits. The limit is
 * fixed, or adaptive: it then learns from the latency and outcome each call reports when
 * it gives its permit back.
 *
 * <p>
 * A caller gets a {@link Permit} from {@link #acquire()} (blocking, for a synchronous
 * call) or {@link #acquireAsync()} (never blocking: the permit comes with a future), and
 * hands it back exactly once: with {@link #onSuccess} or {@link #onError}, which the
 * adaptive limit learns from, or with {@link #release} for a call that ended without an
 * outcome (cancelled). A permit handed back again is ignored. The end of a wait is a
 * timer of the {@link TimeSource}, which only completes the waiter's future, so tests run
 * on a virtual clock.
 *
 * <p>
 * Thread-safe, without {@code synchronized}: the permits, the queue of waiters and the
 * limit are kept under one short {@link ReentrantLock}, never held while a waiter's
 * future completes or a timer is scheduled, so virtual threads are never pinned.
 */
public final class Bulkhead {

    private final String name;

    private final BulkheadConfig config;

    private final TimeSource time;

    private final long maxWaitNanos;

    private final ReentrantLock lock = new ReentrantLock();

    private final ConcurrencyLimit limit;

    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

    private volatile int inUse;

    private volatile int waiting;

    private volatile int currentLimit;

    private final LongAdder permitted = new LongAdder();

    private final LongAdder rejected = new LongAdder();

    private Bulkhead(String name, BulkheadConfig config, TimeSource time) {
        if (name.isBlank()) {
            throw new IllegalArgumentException("A bulkhead needs a name");
        }
        this.name = name;
        this.config = Objects.requireNonNull(config, "config");
        this.time = Objects.requireNonNull(time, "time");
        this.maxWaitNanos = Durations.toNanos(config.maxWait());
        this.limit = ConcurrencyLimit.of(config);
        this.currentLimit = this.limit.limit();
    }

    /**
     * Creates a bulkhead whose waits are timers of the given time source.
     * @param name the bulkhead's name, used in its exceptions and meters
     * @param config its settings
     * @param time where it schedules the end of a wait
     * @return the bulkhead
     */
    public static Bulkhead of(String name, BulkheadConfig config, TimeSource time) {
        return new Bulkhead(name, config, time);
    }

    /**
     * Creates a bulkhead on the system time source.
     * @param name the bulkhead's name, used in its exceptions and meters
     * @param config its settings
     * @return the bulkhead
     */
    public static Bulkhead of(String name, BulkheadConfig config) {
        return of(name, config, TimeSource.system());
    }

    /**
     * Takes a permit, waiting for one on this thread when all are in use, for up to
     * {@link BulkheadConfig#maxWait()}.
     * @return the permit, to hand back exactly once
     * @throws BulkheadFullException if no permit came free in time
     * @throws InterruptedException if the thread was interrupted while it waited: the
     * wait ends at once and the call holds no permit
     */
    public Permit acquire() throws InterruptedException {
        CompletableFuture<Permit> pending = acquireAsync();
        try {
            return pending.get();
        }
        catch (InterruptedException ex) {
            if (!pending.cancel(false) && !pending.isCompletedExceptionally()) {
                release(pending.join());
            }
            throw ex;
        }
        catch (ExecutionException ex) {
            if (ex.getCause() instanceof RuntimeException refusal) {
                throw refusal;
            }
            throw new IllegalStateException(ex.getCause());
        }
    }

    /**
     * Takes a permit without blocking: the future completes with the permit when one is
     * free, at once or when another call gives its permit back, or exceptionally with a
     * {@link BulkheadFullException} when none came free within
     * {@link BulkheadConfig#maxWait()}. It completes on the thread that gave the permit
     * back or on the time source's timer, so what depends on it should hand its work to
     * an executor. Cancelling the future gives up the place in the queue, or, if the
     * permit was granted at the same moment, gives the permit back.
     * @return the future permit
     */
    public CompletableFuture<Permit> acquireAsync() {
        Waiter waiter = null;
        Permit permit = null;
        int refusedAt = 0;
        this.lock.lock();
        try {
            if (this.waiters.isEmpty() && this.inUse < this.limit.limit()) {
                permit = grantLocked();
            }
            else if (this.maxWaitNanos > 0) {
                waiter = new Waiter();
                this.waiters.add(waiter);
                this.waiting = this.waiters.size();
            }
            else {
                refusedAt = this.limit.limit();
            }
        }
        finally {
            this.lock.unlock();
        }
        if (permit != null) {
            this.permitted.increment();
            return CompletableFuture.completedFuture(permit);
        }
        if (waiter == null) {
            this.rejected.increment();
            return CompletableFuture.failedFuture(new BulkheadFullException(this.name, refusedAt));
        }
        return waitFor(waiter);
    }

    private CompletableFuture<Permit> waitFor(Waiter waiter) {
        waiter.whenComplete((permit, failure) -> waiter.ended(failure != null));
        try {
            waiter.timer(this.time.scheduleHandOff(waiter::expire, Duration.ofNanos(this.maxWaitNanos)));
        }
        catch (RuntimeException ex) {
            waiter.completeExceptionally(ex);
        }
        return waiter;
    }

    /**
     * Hands back the permit of a call that produced a value.
     * @param permit the call's permit
     * @param durationNanos how long the call took, which an adaptive limit learns from
     */
    public void onSuccess(Permit permit, long durationNanos) {
        giveBack(permit, durationNanos, false, true);
    }

    /**
     * Hands back the permit of a call that failed; an adaptive limit counts it as a sign
     * of overload.
     * @param permit the call's permit
     * @param durationNanos how long the call took
     * @param error what the call threw
     */
    public void onError(Permit permit, long durationNanos, Throwable error) {
        giveBack(permit, durationNanos, true, true);
    }

    /**
     * Hands back the permit of a call that ended without an outcome, such as a cancelled
     * one; the limit learns nothing from it.
     * @param permit the call's permit
     */
    public void release(Permit permit) {
        giveBack(permit, 0, false, false);
    }

    private void giveBack(Permit permit, long durationNanos, boolean dropped, boolean sample) {
        if (permit.bulkhead != this || !permit.returned.compareAndSet(false, true)) {
            return;
        }
        List<Waiter> granted;
        this.lock.lock();
        try {
            this.inUse--;
            if (sample) {
                this.limit.onSample(durationNanos, permit.inflight, dropped);
                this.currentLimit = this.limit.limit();
            }
            granted = drainLocked();
        }
        finally {
            this.lock.unlock();
        }
        for (Waiter waiter : granted) {
            Permit next = Objects.requireNonNull(waiter.granted);
            if (waiter.complete(next)) {
                this.permitted.increment();
            }
            else {
                release(next);
            }
        }
    }

    private List<Waiter> drainLocked() {
        List<Waiter> granted = List.of();
        while (!this.waiters.isEmpty() && this.inUse < this.limit.limit()) {
            Waiter waiter = this.waiters.poll();
            waiter.granted = grantLocked();
            if (granted.isEmpty()) {
                granted = new ArrayList<>(2);
            }
            granted.add(waiter);
        }
        this.waiting = this.waiters.size();
        return granted;
    }

    private Permit grantLocked() {
        int inflight = this.inUse + 1;
        this.inUse = inflight;
        return new Permit(this, inflight);
    }

    /**
     * Returns the bulkhead's name.
     * @return the name
     */
    public String name() {
        return this.name;
    }

    /**
     * Returns the bulkhead's settings.
     * @return the settings
     */
    public BulkheadConfig config() {
        return this.config;
    }

    /**
     * Returns how many calls may run at once now: the fixed limit, or the adaptive one as
     * it stands.
     * @return the current limit
     */
    public int limit() {
        return this.currentLimit;
    }

    /**
     * Returns how many permits are out.
     * @return the calls running now
     */
    public int concurrentCalls() {
        return this.inUse;
    }

    /**
     * Returns how many calls wait for a permit.
     * @return the calls waiting now
     */
    public int waitingCalls() {
        return this.waiting;
    }

    /**
     * Returns how many calls got a permit since the bulkhead was created.
     * @return the permitted calls
     */
    public long permittedCalls() {
        return this.permitted.sum();
    }

    /**
     * Returns how many calls were refused with a {@link BulkheadFullException} since the
     * bulkhead was created; a call whose wait was interrupted or cancelled is not one.
     * @return the rejected calls
     */
    public long rejectedCalls() {
        return this.rejected.sum();
    }

    @Override
    public String toString() {
        return "Bulkhead '" + this.name + "'";
    }

    /**
     * Proof that a {@link Bulkhead} let a call run; handed back exactly once, to the
     * bulkhead that granted it. Holds no resource of its own.
     */
    public static final class Permit {

        private final Bulkhead bulkhead;

        private final int inflight;

        private final AtomicBoolean returned = new AtomicBoolean();

        private Permit(Bulkhead bulkhead, int inflight) {
            this.bulkhead = bulkhead;
            this.inflight = inflight;
        }

    }

    /**
     * A call waiting for a permit: granted by a call that gives one back, refused by the
     * timer at the end of the wait, or given up by its caller; whichever completes it
     * first decides.
     */
    private final class Waiter extends CompletableFuture<Permit> {

        private @Nullable Permit granted;

        private volatile @Nullable ScheduledTask timer;

        void timer(ScheduledTask task) {
            this.timer = task;
            if (isDone()) {
                task.cancel();
            }
        }

        void expire() {
            if (completeExceptionally(new BulkheadFullException(Bulkhead.this.name, Bulkhead.this.currentLimit))) {
                Bulkhead.this.rejected.increment();
            }
        }

        void ended(boolean refused) {
            ScheduledTask task = this.timer;
            if (task != null) {
                task.cancel();
            }
            if (refused) {
                Bulkhead.this.lock.lock();
                try {
                    Bulkhead.this.waiters.remove(this);
                    Bulkhead.this.waiting = Bulkhead.this.waiters.size();
                }
                finally {
                    Bulkhead.this.lock.unlock();
                }
            }
        }

    }

}
