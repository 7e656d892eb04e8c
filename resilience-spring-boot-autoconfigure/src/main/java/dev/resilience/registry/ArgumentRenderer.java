package dev.resilience.registry;

import org.jspecify.annotations.Nullable;

/**
 * Writes a method argument as text, for dead letters and default idempotency
 * fingerprints. The text of equal arguments must be equal across instances of the
 * application.
 */
@FunctionalInterface
public interface ArgumentRenderer {

    /** Renders with {@link String#valueOf(Object)}. */
    ArgumentRenderer TO_STRING = String::valueOf;

    /**
     * Renders one argument.
     * @param argument the argument, possibly {@code null}
     * @return its text
     */
    String render(@Nullable Object argument);

}
