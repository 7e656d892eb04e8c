package dev.resilience.redis;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Loads the stores' Lua scripts, which sit beside these classes as {@code *.lua} resources.
 */
final class LuaScripts {

    private LuaScripts() {
    }

    @SuppressWarnings("unchecked")
    static <T> RedisScript<T> load(String name, Class<?> resultType) {
        DefaultRedisScript<T> script = new DefaultRedisScript<>();
        script.setLocation(new ClassPathResource(name, LuaScripts.class));
        script.setResultType((Class<T>) resultType);
        return script;
    }
}
