package dev.resilience.core;

import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import dev.resilience.core.lastgood.LastGoodStore;
import dev.resilience.core.lastgood.LastGoodValue;
import dev.resilience.core.support.ExceptionFilter;
import org.jspecify.annotations.Nullable;

/**
 * The last good value of a pipeline's calls: each value the action itself produces (never
 * a fallback's or a replay) is kept in a {@link LastGoodStore} for {@code ttl}, under the
 * key {@code keys} gives the call; a failed call to which the fallbacks apply is served
 * that value before any named fallback, as the fallback {@value #FALLBACK_NAME}, with
 * {@link ExecutionResult#STALE_SINCE} saying when it was stored. Whatever the store or
 * the key function throws is logged and never fails the call. Immutable and thread-safe.
 */
public final class LastGood {

    /** The name the last good value is served under, as a fallback's. */
    public static final String FALLBACK_NAME = "lastGood";

    private static final System.Logger logger = System.getLogger(LastGood.class.getName());

    private final LastGoodStore store;

    private final Duration ttl;

    private final Type valueType;

    private final Function<CallContext, @Nullable String> keys;

    private final List<Class<? extends Throwable>> applyOn;

    private final List<Class<? extends Throwable>> skipOn;

    /**
     * Creates the policy.
     * @param store where values are kept
     * @param ttl how long a value is kept; positive
     * @param valueType the action's declared value type, which the store reads values as
     * @param keys the key of a call (method, caller and arguments); {@code null} keeps
     * and serves nothing for that call
     * @param applyOn the failures it applies to; empty means every failure not in
     * {@code skipOn}
     * @param skipOn the failures passed on without serving the last good value
     * @throws IllegalArgumentException if {@code ttl} is not positive
     */
    public LastGood(LastGoodStore store, Duration ttl, Type valueType, Function<CallContext, @Nullable String> keys,
            List<Class<? extends Throwable>> applyOn, List<Class<? extends Throwable>> skipOn) {
        this.store = Objects.requireNonNull(store, "store");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("The last good value's time to live must be positive, was " + ttl);
        }
        this.valueType = Objects.requireNonNull(valueType, "valueType");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.applyOn = List.copyOf(applyOn);
        this.skipOn = List.copyOf(skipOn);
    }

    /**
     * Returns how long a value is kept.
     * @return the time to live
     */
    public Duration ttl() {
        return this.ttl;
    }

    /**
     * Returns the store.
     * @return the store
     */
    public LastGoodStore store() {
        return this.store;
    }

    boolean appliesTo(Throwable error) {
        return ExceptionFilter.matches(error, this.applyOn, this.skipOn);
    }

    Optional<LastGoodValue> find(String name, CallContext call) {
        try {
            String key = this.keys.apply(call);
            return (key != null) ? this.store.get(key, this.valueType) : Optional.empty();
        }
        catch (RuntimeException ex) {
            logger.log(System.Logger.Level.WARNING,
                    () -> "Last good value of '" + name + "' could not be read; trying the named fallbacks", ex);
            return Optional.empty();
        }
    }

    void keep(String name, CallContext call, @Nullable Object value, Instant storedAt) {
        if (value == null) {
            return;
        }
        try {
            String key = this.keys.apply(call);
            if (key != null) {
                this.store.put(key, value, this.valueType, storedAt, this.ttl);
            }
        }
        catch (RuntimeException ex) {
            logger.log(System.Logger.Level.WARNING, () -> "Last good value of '" + name + "' could not be stored", ex);
        }
    }

}
