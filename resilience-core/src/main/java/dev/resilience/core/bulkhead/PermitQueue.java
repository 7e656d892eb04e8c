package dev.resilience.core.bulkhead;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntFunction;

import dev.resilience.core.time.Durations;
import dev.resilience.core.time.ScheduledTask;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * The waiting side of a {@link Bulkhead}: the calls waiting for a permit, first come
 * first served, and its limit. Under one {@link ReentrantLock}, a call that found no
 * permit free is queued (and {@link Occupancy} marked, so that no new call takes a permit
 * past it), a permit given back while calls wait is handed over to the first of them, a
 * waiter that gives up leaves the queue, and an adaptive limit learns from a permit given
 * back with an outcome. The lock is never held while a waiter's future completes or a
 * timer is scheduled.
 *
 * <p>
 * Calls wait only while as many permits as the limit are out, or while a call that gave
 * its permit back is on its way to hand it over: whoever gives a permit back while calls
 * wait, or raises the limit, takes the lock and hands the free permits over before
 * letting it go, and a call joins the queue only while no permit is free or calls wait
 * already. So no call is left waiting while a permit is free.
 */
final class PermitQueue {

    private final String name;

    private final TimeSource time;

    private final long maxWaitNanos;

    private final Occupancy occupancy;

    private final ReentrantLock lock = new ReentrantLock();

    private final BulkheadConfig config;

    private ConcurrencyLimit limit;

    /**
     * How many times the limit was started afresh; a permit of an earlier one teaches
     * nothing.
     */
    private volatile int generation;

    private final ArrayDeque<Waiter<?>> waiters = new ArrayDeque<>();

    private volatile int waiting;

    private volatile int currentLimit;

    private final LongAdder granted = new LongAdder();

    private final LongAdder rejected = new LongAdder();

    PermitQueue(String name, BulkheadConfig config, TimeSource time, Occupancy occupancy) {
        this.name = name;
        this.time = time;
        this.maxWaitNanos = Durations.toNanos(config.maxWait());
        this.occupancy = occupancy;
        this.config = config;
        this.limit = ConcurrencyLimit.of(config);
        this.currentLimit = this.limit.limit();
    }

    static @Nullable Void noPermit(int inflight) {
        return null;
    }

    /**
     * Waits on this thread for a permit, after a call found none free.
     * @param permit what the caller gets, made from the permits out with its own
     * @return the caller's permit
     */
    <R> R await(IntFunction<R> permit) throws InterruptedException {
        if (this.maxWaitNanos == 0) {
            throw refusal();
        }
        CompletableFuture<R> pending = queue(permit);
        try {
            return pending.get();
        }
        catch (InterruptedException ex) {
            if (!pending.cancel(false) && !pending.isCompletedExceptionally()) {
                exit();
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
     * Queues a call that found no permit free, unless the maximum wait is zero. The end
     * of its wait is scheduled first, so that a call counted as waiting always has it;
     * then, under the lock, a permit that came free meanwhile is taken at once if no call
     * waits, so the caller is queued against the queue as it stands.
     * @param permit what the caller gets, made from the permits out with its own
     * @return the future permit
     */
    <R> CompletableFuture<R> queue(IntFunction<R> permit) {
        if (this.maxWaitNanos == 0) {
            return CompletableFuture.failedFuture(refusal());
        }
        Waiter<R> waiter = new Waiter<>(permit);
        waiter.whenComplete((granted, failure) -> waiter.ended(failure != null));
        @Nullable RuntimeException unscheduled = waiter.startTimer();
        int inflight = 0;
        this.lock.lock();
        try {
            int allowed = this.currentLimit;
            while (!waiter.isDone() && (inflight = this.occupancy.tryTakeUncounted(allowed)) == 0
                    && unscheduled == null) {
                if (this.occupancy.markQueued(allowed)) {
                    this.waiters.add(waiter);
                    this.waiting = this.waiters.size();
                    break;
                }
            }
        }
        finally {
            this.lock.unlock();
        }
        if (inflight > 0) {
            waiter.inflight = inflight;
            handOut(List.<Waiter<?>>of(waiter));
        }
        else if (unscheduled != null) {
            waiter.completeExceptionally(unscheduled);
        }
        return waiter;
    }

    private BulkheadFullException refusal() {
        this.rejected.increment();
        return new BulkheadFullException(this.name, this.currentLimit);
    }

    /**
     * Gives a permit back without teaching the limit: without the lock while no call
     * waits; else the permit is then handed over to the first waiter under it. A
     * give-back with no permit out is refused, once the free permits are handed over to
     * any call that marked itself waiting while the word looked full.
     * @throws IllegalStateException if no permit is out
     */
    void exit() {
        boolean queued;
        try {
            queued = this.occupancy.release();
        }
        catch (IllegalStateException noneOut) {
            handOverLocked(false, 0, 0, false, 0);
            throw noneOut;
        }
        if (queued) {
            handOverLocked(false, 0, 0, false, 0);
        }
    }

    /**
     * Gives back the permit of a call with an outcome, which the adaptive limit learns
     * from first.
     * @param durationNanos how long the call took
     * @param inflight how many permits were out, the call's included, when it got its own
     * @param dropped whether the call failed
     * @param generation the {@link #generation()} when the call got its permit: the limit
     * learns nothing from a permit of a limit since started afresh
     */
    void learnAndRelease(long durationNanos, int inflight, boolean dropped, int generation) {
        handOverLocked(true, durationNanos, inflight, dropped, generation);
    }

    /**
     * Returns how many times the limit was started afresh, for a permit to carry.
     */
    int generation() {
        return this.generation;
    }

    /**
     * Under the lock: when {@code sample}, lets the adaptive limit learn from a permit
     * and gives it back (otherwise the permit was given back already, while calls
     * waited); then hands the permits free over to the first waiters, and completes their
     * futures once the lock is let go.
     */
    private void handOverLocked(boolean sample, long durationNanos, int inflight, boolean dropped, int generation) {
        List<Waiter<?>> handedOver;
        this.lock.lock();
        try {
            if (sample) {
                if (generation == this.generation) {
                    this.limit.onSample(durationNanos, inflight, dropped);
                    this.currentLimit = this.limit.limit();
                }
                this.occupancy.release();
            }
            handedOver = drainLocked();
        }
        finally {
            this.lock.unlock();
        }
        handOut(handedOver);
    }

    /**
     * Under the lock: starts the limit afresh from the configuration, forgetting what an
     * adaptive one learned, in a new generation whose limit the permits out learn nothing
     * from, then hands the permits the new limit frees over to the first waiters.
     */
    void resetLimit() {
        List<Waiter<?>> handedOver;
        this.lock.lock();
        try {
            this.limit = ConcurrencyLimit.of(this.config);
            this.currentLimit = this.limit.limit();
            this.generation++;
            handedOver = drainLocked();
        }
        finally {
            this.lock.unlock();
        }
        handOut(handedOver);
    }

    /**
     * Completes the futures of waiters handed a permit, counting each that gets it; a
     * waiter that has ended meanwhile gives its permit back. Indexed, so that the empty
     * list of a permit no waiter needed allocates no iterator.
     */
    private void handOut(List<Waiter<?>> handedOver) {
        for (int i = 0; i < handedOver.size(); i++) {
            Waiter<?> waiter = handedOver.get(i);
            if (waiter.grant()) {
                this.granted.increment();
            }
            else {
                exit();
            }
        }
    }

    private List<Waiter<?>> drainLocked() {
        List<Waiter<?>> handedOver = List.of();
        int inflight;
        while (!this.waiters.isEmpty()
                && (inflight = this.occupancy.handOver(this.currentLimit, this.waiters.size() > 1)) > 0) {
            Waiter<?> waiter = this.waiters.poll();
            waiter.inflight = inflight;
            if (handedOver.isEmpty()) {
                handedOver = new ArrayList<>(2);
            }
            handedOver.add(waiter);
        }
        this.waiting = this.waiters.size();
        return handedOver;
    }

    int limit() {
        return this.currentLimit;
    }

    int waiting() {
        return this.waiting;
    }

    /** Returns how many waiters got their permit. */
    long granted() {
        return this.granted.sum();
    }

    long rejected() {
        return this.rejected.sum();
    }

    /**
     * A call waiting for a permit: granted by a call that gives one back, refused by the
     * timer at the end of the wait, or given up by its caller; whichever completes it
     * first decides. A permit handed over to a waiter that has already ended is given
     * back.
     */
    private final class Waiter<R> extends CompletableFuture<R> {

        private final IntFunction<R> permit;

        /** The permits out with this one, set under the lock when it is handed over. */
        private int inflight;

        private volatile @Nullable ScheduledTask timer;

        Waiter(IntFunction<R> permit) {
            this.permit = permit;
        }

        /**
         * Schedules the end of the wait; returns why it could not be, or {@code null}.
         */
        @Nullable RuntimeException startTimer() {
            try {
                ScheduledTask task = PermitQueue.this.time.scheduleHandOff(this::expire,
                        Duration.ofNanos(PermitQueue.this.maxWaitNanos));
                this.timer = task;
                if (isDone()) {
                    task.cancel();
                }
                return null;
            }
            catch (RuntimeException ex) {
                return ex;
            }
        }

        boolean grant() {
            return complete(this.permit.apply(this.inflight));
        }

        void expire() {
            if (completeExceptionally(
                    new BulkheadFullException(PermitQueue.this.name, PermitQueue.this.currentLimit))) {
                PermitQueue.this.rejected.increment();
            }
        }

        void ended(boolean refused) {
            ScheduledTask task = this.timer;
            if (task != null) {
                task.cancel();
            }
            if (refused) {
                if (isCancelled()) {
                    PermitQueue.this.rejected.increment();
                }
                PermitQueue.this.lock.lock();
                try {
                    if (PermitQueue.this.waiters.remove(this) && PermitQueue.this.waiters.isEmpty()) {
                        PermitQueue.this.occupancy.clearQueued();
                    }
                    PermitQueue.this.waiting = PermitQueue.this.waiters.size();
                }
                finally {
                    PermitQueue.this.lock.unlock();
                }
            }
        }

    }

}
