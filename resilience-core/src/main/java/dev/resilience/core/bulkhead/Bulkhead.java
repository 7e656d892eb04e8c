package dev.resilience.core.bulkhead;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

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
 * outcome (cancelled). A permit handed back again is ignored. A caller that gives every
 * permit back exactly once by construction, as a pipeline does, may take one without a
 * {@link Permit} object, with {@link #enter()} or {@link #enterAsync()}, and give it back
 * with {@link #exit()}, from which the limit learns nothing. The end of a wait is a timer
 * of the {@link TimeSource}, which only completes the waiter's future, so tests run on a
 * virtual clock.
 *
 * <p>
 * Thread-safe, without {@code synchronized}. While a permit is free and no call waits,
 * taking one is a compare-and-set of one atomic word, which also counts it, and giving it
 * back one atomic addition to it; {@link #enter()} and {@link #exit()} allocate nothing
 * then. The queue of waiters, the hand-over of a permit to the first of them and the
 * adaptive limit are kept under one short {@link ReentrantLock}, taken only while calls
 * wait, and on every permit an adaptive bulkhead learns from; it is never held while a
 * waiter's future completes or a timer is scheduled, so virtual threads are never pinned.
 */
public final class Bulkhead {

    private final String name;

    private final BulkheadConfig config;

    private final boolean learns;

    private final Occupancy occupancy = new Occupancy();

    private final PermitQueue queue;

    private Bulkhead(String name, BulkheadConfig config, TimeSource time) {
        if (name.isBlank()) {
            throw new IllegalArgumentException("A bulkhead needs a name");
        }
        this.name = name;
        this.config = Objects.requireNonNull(config, "config");
        this.learns = config.type() == BulkheadType.ADAPTIVE;
        this.queue = new PermitQueue(name, config, Objects.requireNonNull(time, "time"), this.occupancy);
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
        int inflight = this.occupancy.tryTake(this.queue.limit());
        return (inflight > 0) ? new Permit(this, inflight) : this.queue.await(this::permit);
    }

    /**
     * Takes a permit as {@link #acquire()} does, without a {@link Permit} object: for a
     * caller that gives every permit back exactly once, with {@link #exit()}. Allocates
     * nothing when a permit is free.
     * @throws BulkheadFullException if no permit came free in time
     * @throws InterruptedException if the thread was interrupted while it waited: the
     * wait ends at once and the call holds no permit
     */
    public void enter() throws InterruptedException {
        if (this.occupancy.tryTake(this.queue.limit()) == 0) {
            this.queue.await(PermitQueue::noPermit);
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
        int inflight = this.occupancy.tryTake(this.queue.limit());
        return (inflight > 0) ? CompletableFuture.completedFuture(new Permit(this, inflight))
                : this.queue.queue(this::permit);
    }

    /**
     * Takes a permit as {@link #acquireAsync()} does, without a {@link Permit} object:
     * for a caller that gives every permit back exactly once, with {@link #exit()}. The
     * future completes with {@code null} once the permit is the caller's; cancelling it
     * gives up the place in the queue, or the permit granted at the same moment.
     * @return the future permit
     */
    public CompletableFuture<@Nullable Void> enterAsync() {
        return (this.occupancy.tryTake(this.queue.limit()) > 0) ? CompletableFuture.completedFuture(null)
                : this.queue.queue(PermitQueue::noPermit);
    }

    /**
     * Gives back a permit taken with {@link #enter()} or {@link #enterAsync()}: the first
     * waiter gets it, if a call waits. The limit learns nothing from it. Unlike a
     * {@link Permit}, nothing tells one caller's permit from another's: a caller must
     * give back only a permit it holds, exactly once.
     * @throws IllegalStateException if no permit is out
     */
    public void exit() {
        this.queue.exit();
    }

    private Permit permit(int inflight) {
        return new Permit(this, inflight);
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
        if (permit.bulkhead != this || !permit.handBack()) {
            return;
        }
        if (sample && this.learns) {
            this.queue.learnAndRelease(durationNanos, permit.inflight, dropped, permit.generation);
        }
        else {
            this.queue.exit();
        }
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
     * Puts the limit back as it was created: an adaptive limit forgets what it learned
     * and starts again from its initial limit; a fixed one stays. The permits of calls
     * running now are theirs: they are not taken back, and they come back when those
     * calls end, as always, but the fresh limit learns nothing from their outcomes, which
     * belong to the limit that admitted them; calls waiting keep their place, and get the
     * permits a higher limit frees at once. The counts since creation are kept. For
     * tests, between one and the next. Thread-safe.
     */
    public void reset() {
        this.queue.resetLimit();
    }

    /**
     * Returns how many calls may run at once now: the fixed limit, or the adaptive one as
     * it stands.
     * @return the current limit
     */
    public int limit() {
        return this.queue.limit();
    }

    /**
     * Returns how many permits are out.
     * @return the calls running now
     */
    public int concurrentCalls() {
        return this.occupancy.inUse();
    }

    /**
     * Returns how many calls wait for a permit.
     * @return the calls waiting now
     */
    public int waitingCalls() {
        return this.queue.waiting();
    }

    /**
     * Returns how many calls got a permit since the bulkhead was created.
     * @return the permitted calls
     */
    public long permittedCalls() {
        return this.occupancy.taken() + this.queue.granted();
    }

    /**
     * Returns how many calls were refused with a {@link BulkheadFullException}, or gave
     * up their wait (interrupted or cancelled), since the bulkhead was created.
     * @return the rejected calls
     */
    public long rejectedCalls() {
        return this.queue.rejected();
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

        private static final VarHandle RETURNED;

        static {
            try {
                RETURNED = MethodHandles.lookup().findVarHandle(Permit.class, "returned", boolean.class);
            }
            catch (ReflectiveOperationException ex) {
                throw new ExceptionInInitializerError(ex);
            }
        }

        private final Bulkhead bulkhead;

        private final int inflight;

        private final int generation;

        private volatile boolean returned;

        private Permit(Bulkhead bulkhead, int inflight) {
            this.bulkhead = bulkhead;
            this.inflight = inflight;
            this.generation = bulkhead.queue.generation();
        }

        private boolean handBack() {
            return RETURNED.compareAndSet(this, false, true);
        }

    }

}
