package dev.resilience.core.idempotency;

import java.lang.reflect.Type;

import org.jspecify.annotations.Nullable;

/**
 * A completed result that a store keeps in an encoded form (JSON, say) and decodes only
 * when it is replayed, into the type the replaying call declares. A store that keeps
 * results as objects returns them as they are instead.
 */
@FunctionalInterface
public interface EncodedResult {

    /**
     * Decodes the result.
     * @param type the type the replaying call declares, possibly generic;
     * {@code Object.class} when unknown
     * @return the decoded value
     */
    @Nullable Object decode(Type type);

}
