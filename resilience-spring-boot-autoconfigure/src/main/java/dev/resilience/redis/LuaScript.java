package dev.resilience.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.StreamUtils;

/**
 * One of the stores' Lua scripts, read once from a {@code *.lua} resource beside these classes,
 * with its SHA-1 digest computed once. Immutable: unlike a resource-backed
 * {@code DefaultRedisScript}, running it neither checks the resource for changes nor takes a
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
            text = StreamUtils.copyToString(new ClassPathResource(name, LuaScript.class).getInputStream(),
                    StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read Lua script " + name, ex);
        }
        return new LuaScript<>(text, sha1Of(text), (Class<T>) resultType);
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

    private static String sha1Of(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-1 is not available", ex);
        }
    }
}
