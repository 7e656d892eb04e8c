package dev.resilience.redis.decoding;

/**
 * A subtype of {@link Parcel} in its package, which a replay always accepts.
 *
 * @param label the label
 */
public record Letter(String label) implements Parcel {
}
