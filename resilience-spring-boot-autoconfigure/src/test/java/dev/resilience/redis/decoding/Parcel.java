package dev.resilience.redis.decoding;

/**
 * A declared return type that is an interface: a replay reads the stored class where it
 * is one of its subtypes in this package or in
 * {@code resilience.idempotency.allowed-types}.
 */
public interface Parcel {

    /**
     * Returns the parcel's label.
     * @return the label
     */
    String label();

}
