package dev.resilience.core.deadletter;

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
     * Returns how many dead letters are stored.
     * @return the number of dead letters
     */
    int size();

}
