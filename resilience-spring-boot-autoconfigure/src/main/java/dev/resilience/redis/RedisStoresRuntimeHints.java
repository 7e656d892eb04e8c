package dev.resilience.redis;

import dev.resilience.core.deadletter.DeadLetter;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The runtime hints of the Redis stores in a native image: the Lua scripts they load from
 * the class path ({@code dev/resilience/redis/*.lua}), and Jackson binding of the
 * engine's record that the dead-letter store keeps as JSON ({@link DeadLetter}). The
 * values of the applications' methods that the stores keep are hinted per bean, from
 * their annotations. Registered in {@code META-INF/spring/aot.factories}.
 */
final class RedisStoresRuntimeHints implements RuntimeHintsRegistrar {

    /** The location pattern of the stores' Lua scripts. */
    static final String LUA_SCRIPTS = "dev/resilience/redis/*.lua";

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern(LUA_SCRIPTS);
        new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), DeadLetter.class);
    }

}
