package dev.resilience.redis;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import tools.jackson.core.TreeNode;
import tools.jackson.databind.DatabindContext;
import tools.jackson.databind.DefaultTyping;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.deser.BasicDeserializerFactory;
import tools.jackson.databind.deser.DeserializerFactory;
import tools.jackson.databind.deser.Deserializers;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.NamedType;
import tools.jackson.databind.jsontype.PolymorphicTypeValidator;
import tools.jackson.databind.jsontype.TypeIdResolver;
import tools.jackson.databind.jsontype.impl.ClassNameIdResolver;
import tools.jackson.databind.jsontype.impl.DefaultTypeResolverBuilder;

import org.springframework.util.ClassUtils;

/**
 * The default typing of the Redis idempotency store's own mapper: where a stored result keeps
 * the class of a value inside its JSON, and which classes a replay accepts there.
 *
 * <p>A value keeps its class, as an {@code "@class"} property (or a {@code ["class", value]}
 * pair when it is written as a string or an array, as an enum is), exactly where the type
 * declared at its position cannot say what to build: an interface or abstract class of the
 * application, such as a sealed {@code Parcel}, that Jackson has no deserializer of its own
 * for. That holds at every depth: the elements of a {@code List<Parcel>}, the values of a
 * {@code Map<String, Parcel>}, the content of an {@code Optional<Parcel>}, the body of a
 * {@code ResponseEntity<Parcel>}, a record component declared as a {@code Parcel}. Concrete
 * classes, JDK types ({@code Object}, {@code Number}, collections), containers themselves,
 * enums, JSON trees and types read by a deserializer of their own (one a module registers, or
 * {@code @JsonDeserialize(using|as)} on the type) keep none, so a plain record is written
 * and read exactly as without typing.
 *
 * <p>A replay accepts a stored class only where it is a subtype of the type declared at that
 * position: the class is looked up by name without being initialized, and refused unless it
 * is such a subtype; a class name with type arguments is refused before any class is loaded.
 * Stored data thus never chooses a class the declared type does not allow.
 */
final class ResultTyping extends DefaultTypeResolverBuilder {

    private static final long serialVersionUID = 1L;

    private final transient ClassValue<Boolean> typed;

    private ResultTyping(Predicate<Class<?>> readableAsDeclared) {
        super(DeclaredSubtypes.INSTANCE, DefaultTyping.NON_FINAL, JsonTypeInfo.As.PROPERTY);
        this.typed = new ClassValue<>() {

            @Override
            protected Boolean computeValue(Class<?> type) {
                return Modifier.isAbstract(type.getModifiers()) && !type.isEnum() && !isPlatform(type)
                        && !TreeNode.class.isAssignableFrom(type) && !readableAsDeclared.test(type);
            }
        };
    }

    /**
     * Returns the typing of a store mapper built from another.
     * @param untyped the store's mapper without this typing, modules applied
     * @param deserializers the deserializer factory of {@code untyped}'s builder, after
     * {@code build()}, which holds the deserializers its modules registered
     * @return the typing
     */
    static ResultTyping of(JsonMapper untyped, DeserializerFactory deserializers) {
        List<Deserializers> registered = new ArrayList<>();
        if (deserializers instanceof BasicDeserializerFactory basic) {
            basic.getFactoryConfig().deserializers().forEach(registered::add);
        }
        return new ResultTyping((type) -> {
            JsonDeserialize annotation = type.getAnnotation(JsonDeserialize.class);
            if (annotation != null && (annotation.using() != ValueDeserializer.None.class
                    || annotation.as() != Void.class)) {
                return true;
            }
            for (Deserializers candidate : registered) {
                if (candidate.hasDeserializerFor(untyped.deserializationConfig(), type)) {
                    return true;
                }
            }
            return false;
        });
    }

    @Override
    public boolean useForType(JavaType type) {
        return !type.isPrimitive() && !type.isContainerType() && !type.isReferenceType()
                && this.typed.get(type.getRawClass());
    }

    @Override
    protected TypeIdResolver idResolver(DatabindContext context, JavaType baseType, PolymorphicTypeValidator validator,
            Collection<NamedType> subtypes, boolean forSerialization, boolean forDeserialization) {
        return new ClassIdResolver(baseType, subtypes, validator);
    }

    private static boolean isPlatform(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return loader == null || loader == ClassLoader.getPlatformClassLoader() || type.getName().startsWith("java.");
    }

    /**
     * Class ids that name one class: a generic id would make Jackson load its type arguments
     * before any check.
     */
    private static final class ClassIdResolver extends ClassNameIdResolver {

        private static final long serialVersionUID = 1L;

        ClassIdResolver(JavaType baseType, Collection<NamedType> subtypes, PolymorphicTypeValidator validator) {
            super(baseType, subtypes, validator);
        }

        @Override
        public JavaType typeFromId(DatabindContext context, String id) {
            if (id.indexOf('<') >= 0) {
                if (context instanceof DeserializationContext deserialization) {
                    throw deserialization.invalidTypeIdException(this._baseType, id, "a stored class names one class");
                }
                throw new IllegalArgumentException("Not a class name: " + id);
            }
            return super.typeFromId(context, id);
        }
    }

    /**
     * Allows a stored class only where it is a subtype of the type declared at its position,
     * looked up without initializing it.
     */
    private static final class DeclaredSubtypes extends PolymorphicTypeValidator.Base {

        private static final long serialVersionUID = 1L;

        static final DeclaredSubtypes INSTANCE = new DeclaredSubtypes();

        @Override
        public Validity validateSubClassName(DatabindContext context, JavaType baseType, String subClassName) {
            Class<?> type;
            try {
                type = ClassUtils.forName(subClassName, ClassUtils.getDefaultClassLoader());
            }
            catch (ClassNotFoundException | LinkageError ex) {
                return Validity.DENIED;
            }
            return baseType.getRawClass().isAssignableFrom(type) ? Validity.ALLOWED : Validity.DENIED;
        }

        @Override
        public Validity validateSubType(DatabindContext context, JavaType baseType, JavaType subType) {
            return baseType.getRawClass().isAssignableFrom(subType.getRawClass()) ? Validity.ALLOWED
                    : Validity.DENIED;
        }
    }
}
