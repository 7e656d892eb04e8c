package dev.resilience.redis;

import java.lang.reflect.Type;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.resilience.core.idempotency.EncodedResult;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.exc.InvalidTypeIdException;
import tools.jackson.databind.type.TypeFactory;

import org.springframework.util.ClassUtils;

/**
 * A completed result as Redis keeps it: its JSON and the class it was written from,
 * decoded into the replaying call's declared type.
 *
 * <p>
 * A declared type that Jackson can build is read as declared: a concrete class, a JDK
 * collection, map or array. Where the declared type cannot say what to build (an
 * interface, a sealed or abstract type, {@code Object}), the stored class is read
 * instead, provided it is a subtype of the declared one; the declared type's generics
 * carry over, so a {@code Page<Receipt>} stored as a {@code PageImpl} is read as a
 * {@code PageImpl<Receipt>}. A stored JDK collection or map (such as {@code List.of(..)},
 * whose class Jackson cannot build) is read as its interface: {@code List}, {@code Set},
 * {@code Map} or {@code Collection}. Inside the value, the classes kept where the
 * declared type is an interface or abstract class (the elements of a
 * {@code List<Parcel>}) are read by the mapper's {@link ResultTyping}, which accepts each
 * only where it is a subtype of the type declared at its position.
 *
 * <p>
 * JSON that lacks a class where the typing expects one (a result stored by a version of
 * the store that kept none, whose interfaces the application reads as declared, for
 * instance through {@code @JsonDeserialize(as = ...)} on a property) is read again as the
 * application wrote it, with the store's mapper without the typing, which has no default
 * typing of the application's either. Only a missing class is read again: a class that is
 * refused is not.
 *
 * <p>
 * A stored class is read only where it is allowed ({@link AllowedTypes}): the declared
 * class, or a subtype of it in its package or in
 * {@code resilience.idempotency.allowed-types}. A JDK collection or map under
 * {@code Object} is read as its interface, which builds none of the stored class. A
 * result encoded in this process (the in-memory store's) carries its class itself, which
 * no stored data can name, and is read as that class.
 *
 * <p>
 * Whatever cannot be decoded (a stored class that cannot be loaded or is not allowed,
 * JSON that does not read as the type) throws
 * {@link IdempotencyResultUnavailableException}: the key's call ran, and it is not run
 * again.
 *
 * @param codec the codec that wrote the JSON, whose mappers read it
 * @param key the key the result is stored under, quoted by the exception
 * @param json the result as JSON
 * @param typeName the result's class name, empty for {@code null}
 * @param ownClass the result's class when it was encoded in this process, else
 * {@code null}
 */
record JsonResult(JsonResultCodec codec, String key, String json, String typeName,
        @Nullable Class<?> ownClass) implements EncodedResult {

    private static final List<Class<?>> JDK_CONTAINERS = List.of(List.class, Set.class, Map.class, Collection.class);

    /**
     * {@inheritDoc}
     * @throws IdempotencyResultUnavailableException if the result cannot be read as the
     * type
     */
    @Override
    public @Nullable Object decode(Type type) {
        JavaType target = target(this.codec.mapper().getTypeFactory().constructType(type));
        try {
            return this.codec.mapper().readValue(this.json, target);
        }
        catch (RuntimeException ex) {
            if (lacksTypeId(ex)) {
                return readUntyped(target, ex);
            }
            throw unreadable(target, ex);
        }
    }

    private @Nullable Object readUntyped(JavaType target, RuntimeException typedFailure) {
        try {
            return this.codec.untypedMapper().readValue(this.json, target);
        }
        catch (RuntimeException ex) {
            typedFailure.addSuppressed(ex);
            throw unreadable(target, typedFailure);
        }
    }

    private static boolean lacksTypeId(Throwable failure) {
        for (@Nullable
        Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidTypeIdException invalid && invalid.getTypeId() == null) {
                return true;
            }
        }
        return false;
    }

    private IdempotencyResultUnavailableException unreadable(JavaType target, Throwable cause) {
        return unavailable("the stored " + this.typeName + " cannot be read as " + target.toCanonical(), cause);
    }

    private JavaType target(JavaType declared) {
        if (this.typeName.isEmpty() || declared.isPrimitive() || declared.isContainerType()
                || !(declared.isAbstract() || declared.hasRawClass(Object.class))) {
            return declared;
        }
        Class<?> stored = (this.ownClass != null) ? this.ownClass : storedClass();
        if (!declared.getRawClass().isAssignableFrom(stored)) {
            throw unavailable("the stored " + this.typeName + " is not a " + declared.toCanonical(), null);
        }
        Class<?> buildable = buildable(stored);
        if (this.ownClass == null && buildable == stored && !this.codec.allowedTypes()
            .allows(declared.getRawClass(), buildable,
                    (type) -> ResultTyping.readsAsBean(this.codec.untypedMapper()._deserializationContext(), type))) {
            throw unavailable(AllowedTypes.refusal(declared.getRawClass(), this.typeName), null);
        }
        if (!declared.getRawClass().isAssignableFrom(buildable)) {
            return declared;
        }
        TypeFactory types = this.codec.mapper().getTypeFactory();
        try {
            return types.constructSpecializedType(declared, buildable);
        }
        catch (IllegalArgumentException ex) {
            throw unavailable("the stored " + this.typeName + " cannot be read as " + declared.toCanonical(), ex);
        }
    }

    private Class<?> storedClass() {
        try {
            return ClassUtils.forName(this.typeName, ClassUtils.getDefaultClassLoader());
        }
        catch (ClassNotFoundException | LinkageError ex) {
            throw unavailable("the stored class " + this.typeName + " cannot be loaded", ex);
        }
    }

    private static Class<?> buildable(Class<?> stored) {
        if (stored.getName().startsWith("java.")) {
            for (Class<?> container : JDK_CONTAINERS) {
                if (container.isAssignableFrom(stored)) {
                    return container;
                }
            }
        }
        return stored;
    }

    private IdempotencyResultUnavailableException unavailable(String reason, @Nullable Throwable cause) {
        return (cause != null) ? new IdempotencyResultUnavailableException(this.key, reason, cause)
                : new IdempotencyResultUnavailableException(this.key, reason);
    }
}
