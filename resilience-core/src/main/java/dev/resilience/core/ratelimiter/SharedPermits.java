package dev.resilience.core.ratelimiter;

/**
 * Where a {@link RateLimiter} takes its permits when they are shared with other
 * processes, such as every instance of an application: a store that keeps one limiter's
 * state and decides each permit atomically, on its own clock, by the rule of the
 * in-memory limiter (a burst of {@code limit}, one permit back every
 * {@code period / limit}, the next permit reserved when it is free within the wait the
 * call may make). A {@link RateLimiterStore} makes one for each limiter, with its
 * settings.
 *
 * <p>
 * The limiter asks {@link #take} for each permit on the thread that wants it, which for
 * an asynchronous call is the thread running the call's step, never the timer's: the
 * store may wait for its answer there, for a bounded time. When the store cannot answer,
 * {@link #take} either refuses (a negative wait) or returns {@link #UNAVAILABLE}, and the
 * limiter then judges the call by its own in-memory state, with the same settings: each
 * process then limits on its own. The limiter counts permitted and rejected calls itself,
 * whoever decided them.
 *
 * <p>
 * Implementations are thread-safe and never throw from these methods.
 */
public interface SharedPermits {

    /**
     * What {@link #take} returns when the store could not answer: the limiter judges the
     * call by its own in-memory state.
     */
    long UNAVAILABLE = Long.MIN_VALUE;

    /**
     * Reserves the next permit if it is free within a wait, waiting for the store's
     * answer at most a bound of the store's.
     * @param now the limiter's clock reading for this call, which {@link #giveBack} is
     * given again with the reservation
     * @param maxWaitNanos the longest wait for the permit, {@code 0} for none
     * @return the wait until the reserved permit is free, {@code >= 0}; or, when none is
     * reserved, the negated wait after which one would be, {@code < 0}; or
     * {@link #UNAVAILABLE}
     */
    long take(long now, long maxWaitNanos);

    /**
     * Gives back a reservation that {@link #take} made with a positive wait and whose
     * caller gave the wait up (interrupted or cancelled), only while it is still the
     * latest the store holds, as the in-memory limiter does: a reservation made after it
     * has a wait computed behind it, which cannot be shortened, so the permit then stays
     * spent. Never blocks: it may be called on any thread, the store's answer is not
     * awaited.
     * @param now the clock reading {@link #take} was given
     * @param waitNanos the wait {@link #take} returned, {@code > 0}
     * @return whether the reservation was the latest this store made; {@code false} for
     * one the limiter made itself while the store could not answer, which the limiter
     * then gives back itself
     */
    boolean giveBack(long now, long waitNanos);

    /**
     * Estimates how many permits are free, as of the store's latest answer to this
     * process: other processes may have taken some since.
     * @param now the limiter's clock reading
     * @return the free permits, from 0 to the limit; or {@code -1} before the store's
     * first answer
     */
    int availablePermits(long now);

    /**
     * Names the store, for reports such as an actuator endpoint.
     * @return the store's name, such as {@code redis}
     */
    String store();

    /**
     * Returns how many times the store could not answer.
     * @return the count since these permits were made
     */
    long storeErrors();

}
