package dev.resilience.core.deadletter;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where dead letters are kept for inspection and replay by hand. Implementations are
 * thread-safe and bounded: {@link #write} never throws because the store is full, it
 * evicts the oldest dead letter instead.
 */
public interface DeadLetterStore {

    /**
     * Stores a dead letter as the newest; one with the same id is replaced.
     * @param deadLetter the dead letter
     */
    void write(DeadLetter deadLetter);

    /**
     * Returns the newest dead letters, newest first by write order.
     * @param limit the most to return; not negative
     * @return at most {@code limit} dead letters
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    List<DeadLetter> list(int limit);

    /**
     * Finds a dead letter by id.
     * @param id the id
     * @return the dead letter, or empty if it is unknown or was evicted or deleted
     */
    Optional<DeadLetter> find(String id);

    /**
     * Deletes a dead letter, typically once its work was done by hand.
     * @param id the id
     * @return {@code true} if it was there
     */
    boolean delete(String id);

    /**
     * Claims a dead letter for a run of its call again, so that one caller at a time runs
     * it: while the claim holds, the letter stays listed and found, and no other claim of
     * it succeeds. A claim that is never ended (its holder died) runs out after
     * {@code lease}, and the letter can be claimed again.
     * <p>
     * The default claims by deleting the letter, and releases by writing it back: a
     * holder that dies, or a write-back that fails, loses the letter, and another caller
     * finds no letter, rather than a claimed one, while the claim holds. The stores of
     * this library override it with claims that keep the letter.
     * @param id the dead letter's id
     * @param lease the longest the claim holds without being ended; positive
     * @return the claim, or empty if no dead letter has the id or another claim holds it
     * @throws RuntimeException if the store fails; nothing is claimed
     */
    default Optional<DeadLetterClaim> claim(String id, Duration lease) {
        return DeletingClaim.claim(this, id);
    }

    /**
     * Returns how many dead letters are stored.
     * @return the number of dead letters
     */
    int size();

}
