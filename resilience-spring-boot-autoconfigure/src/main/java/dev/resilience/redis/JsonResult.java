package dev.resilience.redis;

import java.lang.reflect.Type;

import dev.resilience.core.idempotency.EncodedResult;
import dev.resilience.core.idempotency.IdempotencyStoreException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.ClassUtils;

/**
 * A completed result as Redis keeps it: its JSON and the class it was written from, decoded
 * into the replaying call's declared type. The stored class is used only where the declared
 * type says nothing ({@code Object}), so that a replay gets the object the first call
 * returned rather than maps and lists.
 *
 * @param mapper the mapper that wrote the JSON
 * @param json the result as JSON
 * @param typeName the result's class name, empty for {@code null}
 */
record JsonResult(JsonMapper mapper, String json, String typeName) implements EncodedResult {

    @Override
    public @Nullable Object decode(Type type) {
        JavaType target = this.mapper.getTypeFactory().constructType(type);
        if (target.hasRawClass(Object.class) && !this.typeName.isEmpty()) {
            target = storedType(target);
        }
        try {
            return this.mapper.readValue(this.json, target);
        }
        catch (JacksonException ex) {
            throw new IdempotencyStoreException("Idempotency store holds a result that cannot be read as " + target
                    + ": " + ex.getOriginalMessage(), ex);
        }
    }

    private JavaType storedType(JavaType declared) {
        try {
            return this.mapper.getTypeFactory()
                .constructType(ClassUtils.forName(this.typeName, ClassUtils.getDefaultClassLoader()));
        }
        catch (ClassNotFoundException | LinkageError ex) {
            return declared;
        }
    }
}
