package dev.resilience.core.lastgood;

import java.time.Instant;
import java.util.Objects;

/**
 * A value a method produced, as a {@link LastGoodStore} gives it back.
 *
 * @param value the value
 * @param storedAt when the method produced it and it was stored
 */
public record LastGoodValue(Object value, Instant storedAt) {

    /**
     * Checks that both are given.
     */
    public LastGoodValue {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(storedAt, "storedAt");
    }

}
