package dev.resilience.core.deadletter;

import java.util.Optional;

/**
 * The claim of a store without claims of its own: deleting the letter is the claim, and
 * releasing it writes the letter back.
 */
final class DeletingClaim implements DeadLetterClaim {

    private final DeadLetterStore store;

    private final DeadLetter deadLetter;

    private DeletingClaim(DeadLetterStore store, DeadLetter deadLetter) {
        this.store = store;
        this.deadLetter = deadLetter;
    }

    static Optional<DeadLetterClaim> claim(DeadLetterStore store, String id) {
        Optional<DeadLetter> found = store.find(id);
        if (found.isEmpty() || !store.delete(id)) {
            return Optional.empty();
        }
        return Optional.of(new DeletingClaim(store, found.get()));
    }

    @Override
    public DeadLetter deadLetter() {
        return this.deadLetter;
    }

    @Override
    public boolean complete() {
        return true;
    }

    @Override
    public void release() {
        this.store.write(this.deadLetter);
    }

}
