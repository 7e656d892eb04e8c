package dev.resilience.core.deadletter;

/**
 * One caller's hold on a dead letter while it runs the letter's call again, from
 * {@link DeadLetterStore#claim}. While it holds, no other claim of the letter succeeds,
 * in this process or, with a shared store, in another; it ends with {@link #complete} or
 * {@link #release}, or by itself when its lease runs out (its holder died). Thread-safe;
 * each claim is ended once.
 */
public interface DeadLetterClaim {

    /**
     * Returns the claimed dead letter, as it was when claimed.
     * @return the dead letter
     */
    DeadLetter deadLetter();

    /**
     * Ends the claim with the letter's work done: the dead letter is deleted.
     * @return {@code true} if the dead letter was there and is deleted
     * @throws RuntimeException if the store fails; the letter may then still be stored
     */
    boolean complete();

    /**
     * Ends the claim with the letter's work not done: the dead letter stays stored as it
     * was, and may be claimed again.
     * @throws RuntimeException if the letter could not be stored again and is lost: only
     * a store that claims by deleting (the default of {@link DeadLetterStore#claim})
     * throws here; the stores of this library keep the letter and, when they fail to end
     * the claim, let it run out with its lease
     */
    void release();

}
