package dev.resilience.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.DigestUtils;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * One of the stores' Lua scripts, read once from a {@code *.lua} resource beside these
 * classes, with its SHA-1 digest computed once. Immutable: unlike
 * {@code DefaultRedisScript}, whose {@code getSha1()} takes a lock and asks its source
 * whether it changed (a jar lookup for a resource) on every call, running it takes no
 * lock, so concurrent calls do not queue behind one another.
 *
 * @param <T> the type the script's reply is converted to
 * @param text the script
 * @param sha1 the script's SHA-1 digest in lower-case hex, the name {@code EVALSHA} uses
 * @param resultType the type the script's reply is converted to
 */
record LuaScript<T>(String text, String sha1, Class<T> resultType) implements RedisScript<T> {

    @SuppressWarnings("unchecked")
    static <T> LuaScript<T> load(String name, Class<?> resultType) {
        String text;
        try {
            text = new ClassPathResource(name, LuaScript.class).getContentAsString(StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read Lua script " + name, ex);
        }
        return new LuaScript<>(text, DigestUtils.sha1DigestAsHex(text), (Class<T>) resultType);
    }

    @Override
    public String getSha1() {
        return this.sha1;
    }

    @Override
    public Class<T> getResultType() {
        return this.resultType;
    }

    @Override
    public String getScriptAsString() {
        return this.text;
    }
}
