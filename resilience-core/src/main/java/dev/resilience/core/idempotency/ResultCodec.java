package dev.resilience.core.idempotency;

import java.lang.reflect.Type;

import org.jspecify.annotations.Nullable;

/**
 * Turns a completed result into the data a store keeps, so that every replay decodes a
 * fresh copy that no other caller can change. The in-memory store uses one when given it
 * (the Spring layer gives it the JSON codec of the Redis store, so that both stores keep
 * results alike); {@code resilience-core} alone has none, and its in-memory store then
 * keeps the result object itself.
 */
@FunctionalInterface
public interface ResultCodec {

    /**
     * Encodes a result.
     * @param value the result, may be {@code null}
     * @param type the type the call declares for it, possibly generic;
     * {@code Object.class} when unknown
     * @return the encoded result, immutable, whose {@link EncodedResult#decode} returns a
     * new copy on every call
     * @throws IdempotencyResultNotStorableException when the value cannot be encoded or
     * is larger than the codec's bound
     */
    EncodedResult encode(@Nullable Object value, Type type);

}
