package dev.resilience.redis.planted;

import dev.resilience.redis.decoding.Parcel;

/**
 * A subtype of {@link Parcel} outside its package that an application lists in
 * {@code resilience.idempotency.allowed-types}.
 *
 * @param label the label
 */
public record ListedParcel(String label) implements Parcel {
}
