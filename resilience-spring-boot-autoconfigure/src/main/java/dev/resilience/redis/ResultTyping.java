package dev.resilience.redis;

import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.function.Predicate;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.TreeNode;
import tools.jackson.databind.DatabindContext;
import tools.jackson.databind.DefaultTyping;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.AbstractDeserializer;
import tools.jackson.databind.deser.bean.BeanDeserializerBase;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.NamedType;
import tools.jackson.databind.jsontype.PolymorphicTypeValidator;
import tools.jackson.databind.jsontype.TypeIdResolver;
import tools.jackson.databind.jsontype.impl.ClassNameIdResolver;
import tools.jackson.databind.jsontype.impl.DefaultTypeResolverBuilder;

import org.springframework.util.ClassUtils;

/**
 * The default typing of the Redis idempotency store's own mapper: where a stored result
 * keeps the class of a value inside its JSON, and which classes a replay accepts there.
 *
 * <p>
 * A value keeps its class, as an {@code "@class"} property (or a {@code ["class", value]}
 * pair when it is written as a string or an array, as an enum is), exactly where the type
 * declared at its position cannot say what to build: an interface or abstract class of
 * the application, such as a sealed {@code Parcel}, that the store's mapper without this
 * typing cannot read as declared. That holds at every depth: the elements of a
 * {@code List<Parcel>}, the values of a {@code Map<String, Parcel>}, the content of an
 * {@code Optional<Parcel>}, the body of a {@code ResponseEntity<Parcel>}, a record
 * component declared as a {@code Parcel}. Concrete classes, JDK types ({@code Object},
 * {@code Number}, collections), containers themselves, enums, JSON trees and the
 * interfaces and abstract classes that the mapper reads as declared keep none, so a plain
 * record is written and read exactly as without typing. Which abstract types the mapper
 * reads as declared is the mapper's own answer: those it finds a deserializer for that
 * builds them (one a module registers, an abstract type mapping,
 * {@code @JsonDeserialize(using|as)} on the type or on a mix-in of it, a creator such as
 * a static {@code @JsonCreator} factory), not those it could only read with a type id.
 *
 * <p>
 * A replay accepts a stored class only where it is a subtype of the type declared at that
 * position in the declared type's package or in
 * {@code resilience.idempotency.allowed-types} ({@link AllowedTypes}): the class is
 * looked up by name without being initialized, and refused unless it is such a subtype; a
 * class name with type arguments is refused before any class is loaded. Stored data thus
 * never chooses a class the declared type does not allow.
 *
 * <p>
 * The rule is never changed in place: the copies Jackson asks for
 * ({@link #withDefaultImpl}, {@link #withSettings}, {@link #init}) are rules of this
 * kind, whose ids stay class names checked as above.
 */
final class ResultTyping extends DefaultTypeResolverBuilder {

    private static final long serialVersionUID = 1L;

    private final transient ClassValue<Boolean> typed;

    private ResultTyping(Predicate<Class<?>> readableAsDeclared, AllowedTypes allowedTypes) {
        super(new DeclaredSubtypes(allowedTypes), DefaultTyping.NON_FINAL, JsonTypeInfo.As.PROPERTY);
        this.typed = new ClassValue<>() {

            @Override
            protected Boolean computeValue(Class<?> type) {
                return Modifier.isAbstract(type.getModifiers()) && !type.isEnum() && !isPlatform(type)
                        && !TreeNode.class.isAssignableFrom(type) && !readableAsDeclared.test(type);
            }
        };
    }

    private ResultTyping(ResultTyping base, @Nullable Class<?> defaultImpl) {
        super(base, defaultImpl);
        this.typed = base.typed;
    }

    /**
     * Returns the typing of a store mapper built from another.
     * @param untyped the store's mapper without this typing, modules and mix-ins applied,
     * which decides the abstract types read as declared
     * @param allowedTypes the subtypes allowed beyond those in the declared type's
     * package
     * @return the typing
     */
    static ResultTyping of(JsonMapper untyped, AllowedTypes allowedTypes) {
        return new ResultTyping((type) -> readsAsDeclared(untyped, type), allowedTypes);
    }

    /**
     * Returns the validator of the classes stored data names: for the store's mapper, so
     * that types the application annotates for polymorphism are read within the same
     * bounds.
     * @param allowedTypes the subtypes allowed beyond those in the declared type's
     * package
     * @return the validator
     */
    static PolymorphicTypeValidator validator(AllowedTypes allowedTypes) {
        return new DeclaredSubtypes(allowedTypes);
    }

    /**
     * Returns whether a mapper builds an abstract type without a type id: whether the
     * deserializer it finds for the type is other than the one that can only read a
     * subtype named by a type id.
     */
    private static boolean readsAsDeclared(JsonMapper mapper, Class<?> type) {
        try {
            // public in Jackson 3 though named as internal: the lookup readValue itself
            // makes
            ValueDeserializer<Object> deserializer = mapper._deserializationContext()
                .findNonContextualValueDeserializer(mapper.constructType(type));
            return deserializer != null && !(deserializer instanceof AbstractDeserializer);
        }
        catch (RuntimeException ex) {
            return false;
        }
    }

    /**
     * Returns whether a class is read as a bean, built through its constructor and
     * setters, rather than as a value; a class whose deserializer cannot be found counts
     * as a bean.
     */
    static boolean readsAsBean(DeserializationContext context, Class<?> type) {
        try {
            return context.findRootValueDeserializer(context.constructType(type)) instanceof BeanDeserializerBase;
        }
        catch (RuntimeException ex) {
            return true;
        }
    }

    /**
     * Returns this rule with a class to read where a position lacks its type id, as
     * Jackson asks for an abstract type that the mapper maps to a class.
     */
    @Override
    public ResultTyping withDefaultImpl(@Nullable Class<?> defaultImpl) {
        return (this._defaultImpl == defaultImpl) ? this : new ResultTyping(this, defaultImpl);
    }

    /**
     * Returns a copy of this rule with the inclusion, property name, visibility and
     * default class of {@code settings}; its ids stay class names checked against the
     * declared type, whatever id {@code settings} names.
     */
    @Override
    public ResultTyping withSettings(JsonTypeInfo.Value settings) {
        ResultTyping copy = new ResultTyping(this, this._defaultImpl);
        copy.apply(settings.withIdType(JsonTypeInfo.Id.CLASS));
        return copy;
    }

    /**
     * Returns a copy of this rule with {@code settings}, as {@link #withSettings} does; a
     * custom id resolver is not used, as it would read ids this rule does not check.
     */
    @Override
    public ResultTyping init(JsonTypeInfo.@Nullable Value settings, @Nullable TypeIdResolver idResolver) {
        return (settings != null) ? withSettings(settings) : this;
    }

    /**
     * Returns a copy of this rule whose type ids are visible, or not, to the value's
     * deserializer.
     */
    @Override
    public ResultTyping typeIdVisibility(boolean isVisible) {
        ResultTyping copy = new ResultTyping(this, this._defaultImpl);
        copy._typeIdVisible = isVisible;
        return copy;
    }

    private void apply(JsonTypeInfo.Value settings) {
        super.withSettings(settings);
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
     * Class ids that name one class: a generic id would make Jackson load its type
     * arguments before any check.
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
     * Allows a stored class only where it is a subtype of the type declared at its
     * position that {@link AllowedTypes} allows, looked up without initializing it.
     */
    private static final class DeclaredSubtypes extends PolymorphicTypeValidator.Base {

        private static final long serialVersionUID = 1L;

        private final transient AllowedTypes allowedTypes;

        DeclaredSubtypes(AllowedTypes allowedTypes) {
            this.allowedTypes = allowedTypes;
        }

        @Override
        public Validity validateSubClassName(DatabindContext context, JavaType baseType, String subClassName) {
            Class<?> type;
            try {
                type = ClassUtils.forName(subClassName, ClassUtils.getDefaultClassLoader());
            }
            catch (ClassNotFoundException | LinkageError ex) {
                return Validity.DENIED;
            }
            return this.allowedTypes.allows(baseType.getRawClass(), type, (stored) -> readsAsBean(context, stored))
                    ? Validity.ALLOWED : Validity.DENIED;
        }

        @Override
        public Validity validateSubType(DatabindContext context, JavaType baseType, JavaType subType) {
            return this.allowedTypes.allows(baseType.getRawClass(), subType.getRawClass(),
                    (stored) -> readsAsBean(context, stored)) ? Validity.ALLOWED : Validity.DENIED;
        }

        private static boolean readsAsBean(DatabindContext context, Class<?> type) {
            return !(context instanceof DeserializationContext deserialization)
                    || ResultTyping.readsAsBean(deserialization, type);
        }

    }

}
