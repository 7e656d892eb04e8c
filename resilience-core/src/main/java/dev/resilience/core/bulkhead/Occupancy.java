package dev.resilience.core.bulkhead;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The permits of a {@link Bulkhead} that are out, whether calls wait for one, and how
 * many were taken without waiting, all in one atomic word, so that taking a free permit
 * is one compare-and-set and giving it back one atomic addition, counted without a third
 * atomic operation.
 *
 * <p>
 * The word holds, from the lowest bit: the permits out ({@value #IN_USE_BITS} bits, more
 * than {@link BulkheadConfig#HIGHEST_LIMIT}), a spare bit, set, that a give-back with no
 * permit out borrows, the flag that calls wait, and the count of permits taken
 * ({@value #TAKEN_BITS} bits, wrapping around). A permit is taken without the bulkhead's
 * lock only while no call waits, so a new call never overtakes a waiting one; and while
 * the flag is set only the holder of the bulkhead's lock takes or hands over permits (a
 * call giving its permit back then takes the lock to hand it over), so a permit given
 * back always reaches the first waiter. The flag is set and cleared under the lock,
 * together with the queue of waiters it stands for.
 *
 * <p>
 * A give-back with no permit out subtracts one before it finds that out and adds it back:
 * in between, the borrow stops at the spare bit, so the flag and the count never move,
 * the permits out read as far more than any limit (no call takes one, and
 * {@link #inUse()} reads none), and another give-back meanwhile finds the spare bit
 * borrowed and is refused too, for as many as overlap (up to
 * 2<sup>{@value #IN_USE_BITS}</sup> less the highest limit, hundreds of thousands). A
 * call may meanwhile mark itself waiting, with no permit out to be handed over to it; so
 * whoever is refused hands the free permits over once it has undone its addition.
 *
 * <p>
 * The count of permits taken wraps around after 2<sup>{@value #TAKEN_BITS}</sup>; the
 * taker whose permit moves the top bit of the count (at each half of its range) adds one
 * to {@code halves}, which {@link #taken()} reads to know how many times the count
 * wrapped. A reading is exact, and so never smaller than an earlier one, as long as no
 * taker is held up between its compare-and-set and that addition for
 * 2<sup>{@value #TAKEN_BITS}</sup>/2 permits, days of the fastest bulkhead.
 */
final class Occupancy {

    /** The bits of the permits out. */
    static final int IN_USE_BITS = 19;

    /** The bits of the count of permits taken. */
    static final int TAKEN_BITS = Long.SIZE - IN_USE_BITS - 2;

    private static final long IN_USE_MASK = (1L << IN_USE_BITS) - 1;

    /**
     * A bit always set but while a give-back with no permit out borrows it, until that
     * give-back is undone.
     */
    private static final long SPARE = 1L << IN_USE_BITS;

    private static final long QUEUED = SPARE << 1;

    private static final int TAKEN_SHIFT = IN_USE_BITS + 2;

    private static final long ONE_TAKEN = 1L << TAKEN_SHIFT;

    /** The bits of the count below its top bit: all zero at each half of its range. */
    private static final long HALF_MASK = ((1L << (TAKEN_BITS - 1)) - 1) << TAKEN_SHIFT;

    private static final VarHandle WORD;

    private static final VarHandle HALVES;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WORD = lookup.findVarHandle(Occupancy.class, "word", long.class);
            HALVES = lookup.findVarHandle(Occupancy.class, "halves", long.class);
        }
        catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final long takenBefore;

    private volatile long word;

    /** How many times the top bit of the count of permits taken has changed. */
    private volatile long halves;

    Occupancy() {
        this(0);
    }

    /**
     * Creates the word as if a number of permits had been taken already, so that a test
     * can move the count across its halves and its wrap-around; {@link #taken()} counts
     * from there.
     * @param takenBefore the permits taken before, counted from 0 by {@link #taken()}
     */
    Occupancy(long takenBefore) {
        this.takenBefore = takenBefore;
        this.word = (takenBefore << TAKEN_SHIFT) | SPARE;
        this.halves = takenBefore >>> (TAKEN_BITS - 1);
    }

    /**
     * Takes a permit if no call waits and fewer than {@code limit} are out, and counts it
     * as taken.
     * @param limit the permits that may be out
     * @return how many are out with this one, or 0 if none was taken
     */
    int tryTake(int limit) {
        return take(limit, ONE_TAKEN);
    }

    /**
     * Takes a permit as {@link #tryTake} does, for a waiter that may have given up
     * meanwhile: not counted as taken, since the bulkhead counts a waiter's permit once
     * the waiter has it.
     * @param limit the permits that may be out
     * @return how many are out with this one, or 0 if none was taken
     */
    int tryTakeUncounted(int limit) {
        return take(limit, 0);
    }

    private int take(int limit, long counted) {
        long current = this.word;
        while ((current & QUEUED) == 0 && (current & IN_USE_MASK) < limit) {
            long next = current + 1 + counted;
            long witness = (long) WORD.compareAndExchange(this, current, next);
            if (witness == current) {
                if (counted != 0 && (next & HALF_MASK) == 0) {
                    HALVES.getAndAdd(this, 1L);
                }
                return (int) (next & IN_USE_MASK);
            }
            current = witness;
        }
        return 0;
    }

    /**
     * Gives a permit back, with one atomic addition and no read before it (on a word that
     * other threads write, a read before the addition costs as much as a second atomic
     * operation). Unless calls wait, that is all; while they wait, no new call takes the
     * permit, and the caller must hand it over to the first waiter under the bulkhead's
     * lock ({@link #handOver}).
     * @return {@code true} if calls wait, so that the caller must hand the permit over
     * @throws IllegalStateException if no permit was out: the addition is undone at once,
     * and no flag nor count moved in between; but a call may have marked itself waiting
     * meanwhile, so the caller must then hand the free permits over before it lets the
     * exception go
     */
    boolean release() {
        long before = (long) WORD.getAndAdd(this, -1L);
        if (((before - 1) & SPARE) == 0) {
            WORD.getAndAdd(this, 1L);
            throw new IllegalStateException("No permit is out");
        }
        return (before & QUEUED) != 0;
    }

    /**
     * Marks that calls wait, unless a permit has come free meanwhile; under the
     * bulkhead's lock, with the waiter added to its queue.
     * @param limit the permits that may be out
     * @return {@code true} if calls wait now; {@code false} if a permit is free and no
     * call waits, which the caller should take instead
     */
    boolean markQueued(int limit) {
        long current = this.word;
        while ((current & QUEUED) == 0) {
            if ((current & IN_USE_MASK) < limit) {
                return false;
            }
            long witness = (long) WORD.compareAndExchange(this, current, current | QUEUED);
            if (witness == current) {
                return true;
            }
            current = witness;
        }
        return true;
    }

    /**
     * Hands a permit over to the first waiter if fewer than {@code limit} are out; under
     * the bulkhead's lock. Not counted as taken: the bulkhead counts a waiter's permit
     * once the waiter has it.
     * @param limit the permits that may be out
     * @param othersWait whether calls still wait after this one
     * @return how many are out with this one, or 0 if none was free
     */
    int handOver(int limit, boolean othersWait) {
        long current = this.word;
        while ((current & IN_USE_MASK) < limit) {
            long next = (current + 1) & ~QUEUED | (othersWait ? QUEUED : 0);
            long witness = (long) WORD.compareAndExchange(this, current, next);
            if (witness == current) {
                return (int) (next & IN_USE_MASK);
            }
            current = witness;
        }
        return 0;
    }

    /**
     * Marks that no call waits any more; under the bulkhead's lock, once its queue is
     * empty.
     */
    void clearQueued() {
        long current = this.word;
        while ((current & QUEUED) != 0) {
            long witness = (long) WORD.compareAndExchange(this, current, current & ~QUEUED);
            if (witness == current) {
                return;
            }
            current = witness;
        }
    }

    /**
     * Returns how many permits are out.
     * @return the permits out now
     */
    int inUse() {
        long current = this.word;
        return ((current & SPARE) == 0) ? 0 : (int) (current & IN_USE_MASK);
    }

    /**
     * Returns how many permits were taken by {@link #tryTake}.
     * @return the count since the word was created
     */
    long taken() {
        long halvesSeen = this.halves;
        long field = this.word >>> TAKEN_SHIFT;
        long topBit = field >>> (TAKEN_BITS - 1);
        long wraps = (halvesSeen - topBit + 1) >> 1;
        return (wraps << TAKEN_BITS) + field - this.takenBefore;
    }

}
