package dev.resilience.core.lastgood;

import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Keeps the last value each call of a method produced, under a key that names the method,
 * the caller and the arguments, for a while. Implementations are thread-safe; what they
 * throw never fails a call: a failed write is logged, a failed read goes on to the named
 * fallbacks.
 */
public interface LastGoodStore {

    /**
     * Keeps a value, replacing the one kept under the key.
     * @param key the key
     * @param value the value the method produced
     * @param type the method's declared value type
     * @param storedAt when it was produced
     * @param ttl how long it is kept; positive
     */
    void put(String key, Object value, Type type, Instant storedAt, Duration ttl);

    /**
     * Returns the value kept under a key, unless it has expired.
     * @param key the key
     * @param type the type to read it as: the method's declared value type
     * @return the value and when it was stored, or empty
     */
    Optional<LastGoodValue> get(String key, Type type);

}
