package dev.resilience.aop;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Hedged;
import dev.resilience.annotation.RateLimited;
import dev.resilience.annotation.Retryable;
import dev.resilience.annotation.TimeLimited;
import dev.resilience.registry.InvalidResiliencePolicyException;
import dev.resilience.core.retry.Jitter;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ObjectUtils;

/**
 * The instance names of the annotated methods, compared across methods as they are
 * compiled. Two distinct methods may not go by one default name
 * ({@code SimpleClassName#method}: two classes of one simple name in different packages,
 * or two overloads), which would make them share a retry instance, a breaker, idempotency
 * keys and meters without anyone naming them. Two annotations that name one breaker,
 * retry instance, bulkhead, rate limiter, time limiter or hedging instance must configure
 * it alike: the registry resolves a name once, from the first annotation that asks for
 * it, and never reads the others. Attributes are compared by what they configure, not as
 * written: {@code delay = "1s"} and {@code delay = "1000ms"} agree (and the durations of
 * {@code @Bulkhead} and {@code @RateLimited} alike), as do class arrays that list the
 * same classes in another order; a value that does not parse fails here when the first
 * annotation wrote another, since the resolver never sees it. Only annotations are
 * compared; the YAML, the HTTP client and {@code ResilienceTemplate} name instances
 * without one and never conflict (the registry warns of an annotation setting that a name
 * it resolved before, without an annotation, leaves unapplied). Thread-safe.
 */
final class InstanceNameConflicts {

    private static final Map<Class<? extends Annotation>, Set<String>> DURATIONS = Map.of(Retryable.class,
            Set.of("delay", "maxDelay", "attemptTimeout", "maxDuration"), Bulkhead.class, Set.of("maxWait"),
            RateLimited.class, Set.of("period", "timeout"), TimeLimited.class, Set.of("timeout"), Hedged.class,
            Set.of("delay"));

    /** The attributes that no property sets: the result predicates. */
    private static final Map<Class<? extends Annotation>, String> ANNOTATION_ONLY = Map.of(Retryable.class,
            "retryOnResult", CircuitGuarded.class, "failOnResult");

    private final Map<String, Declaration> defaultNames = new ConcurrentHashMap<>();

    private final Map<String, Declaration> breakers = new ConcurrentHashMap<>();

    private final Map<String, Declaration> retries = new ConcurrentHashMap<>();

    private final Map<String, Declaration> bulkheads = new ConcurrentHashMap<>();

    private final Map<String, Declaration> rateLimiters = new ConcurrentHashMap<>();

    private final Map<String, Declaration> timeLimiters = new ConcurrentHashMap<>();

    private final Map<String, Declaration> hedging = new ConcurrentHashMap<>();

    /**
     * Records a method that goes by its default name.
     * @param declaration the method and the annotation that leaves its name empty
     * @param name the default name
     * @throws InvalidResiliencePolicyException when another method goes by the same name
     */
    void defaultName(Declaration declaration, String name) {
        Declaration first = this.defaultNames.putIfAbsent(name, declaration);
        if (first == null || first.isSameMethod(declaration)) {
            return;
        }
        String setting = "@" + declaration.annotation().annotationType().getSimpleName() + "(name)";
        throw new InvalidResiliencePolicyException(declaration.subject(), setting, name,
                declaration.qualifiedName() + " and " + first.qualifiedName() + " of bean '" + first.beanName()
                        + "' both leave their names empty, so both go by '" + name
                        + "' and would share every instance and meter of that name",
                "Name the instances of one of the two methods, such as " + suggestion(declaration, first) + ".");
    }

    /**
     * Records the annotation of a breaker name.
     * @param declaration the method and its annotation
     * @param name the breaker's name
     * @throws InvalidResiliencePolicyException when another annotation configures the
     * breaker otherwise
     */
    void breaker(Declaration declaration, String name) {
        compare(this.breakers, declaration, name, "breaker", "resilience.circuit-breaker.instances.");
    }

    /**
     * Records the annotation of a retry instance's name.
     * @param declaration the method and its annotation
     * @param name the retry instance's name
     * @throws InvalidResiliencePolicyException when another annotation configures the
     * instance otherwise
     */
    void retry(Declaration declaration, String name) {
        compare(this.retries, declaration, name, "retry instance", "resilience.retry.instances.");
    }

    /**
     * Records the annotation of a bulkhead's name.
     * @param declaration the method and its annotation
     * @param name the bulkhead's name
     * @throws InvalidResiliencePolicyException when another annotation configures the
     * bulkhead otherwise
     */
    void bulkhead(Declaration declaration, String name) {
        compare(this.bulkheads, declaration, name, "bulkhead", "resilience.bulkhead.instances.");
    }

    /**
     * Records the annotation of a rate limiter's name.
     * @param declaration the method and its annotation
     * @param name the rate limiter's name
     * @throws InvalidResiliencePolicyException when another annotation configures the
     * rate limiter otherwise
     */
    void rateLimiter(Declaration declaration, String name) {
        compare(this.rateLimiters, declaration, name, "rate limiter", "resilience.rate-limiter.instances.");
    }

    /**
     * Records the annotation of a time limiter's name.
     * @param declaration the method and its annotation
     * @param name the time limiter's name
     * @throws InvalidResiliencePolicyException when another annotation configures the
     * time limiter otherwise
     */
    void timeLimiter(Declaration declaration, String name) {
        compare(this.timeLimiters, declaration, name, "time limiter", "resilience.time-limiter.instances.");
    }

    /**
     * Records the annotation of a hedging instance's name.
     * @param declaration the method and its annotation
     * @param name the hedging instance's name
     * @throws InvalidResiliencePolicyException when another annotation configures the
     * hedging instance otherwise
     */
    void hedging(Declaration declaration, String name) {
        compare(this.hedging, declaration, name, "hedging instance", "resilience.hedging.instances.");
    }

    private static void compare(Map<String, Declaration> declarations, Declaration declaration, String name,
            String kind, String prefix) {
        Declaration first = declarations.putIfAbsent(name, declaration);
        if (first == null) {
            return;
        }
        Map<String, Object> theirs = AnnotationUtils.getAnnotationAttributes(first.annotation());
        Map<String, Object> ours = AnnotationUtils.getAnnotationAttributes(declaration.annotation());
        for (Map.Entry<String, Object> attribute : ours.entrySet()) {
            String attributeName = attribute.getKey();
            Object their = theirs.get(attributeName);
            if ("value".equals(attributeName) || "name".equals(attributeName)
                    || same(declaration.annotation(), attributeName, attribute.getValue(), their)) {
                continue;
            }
            String annotationName = "@" + declaration.annotation().annotationType().getSimpleName();
            String orElse = attributeName.equals(ANNOTATION_ONLY.get(declaration.annotation().annotationType()))
                    ? ", or give the two annotations different names (no property sets " + attributeName + ")."
                    : ", or set " + prefix + name + "." + kebabCase(attributeName) + " and leave " + attributeName
                            + " out of both annotations.";
            String unreadable = unreadable(declaration.annotation(), attributeName, attribute.getValue());
            if (unreadable != null) {
                throw new InvalidResiliencePolicyException(declaration.subject(),
                        annotationName + "(" + attributeName + ")", render(attribute.getValue()), unreadable,
                        "Write " + render(their) + " as " + first.subject() + " does" + orElse);
            }
            throw new InvalidResiliencePolicyException(declaration.subject(),
                    annotationName + "(" + attributeName + ")", render(attribute.getValue()),
                    kind + " '" + name + "' is also configured by " + first.subject() + ", with " + attributeName
                            + " = " + render(their) + "; one name has one configuration, so which of the two applies "
                            + "would depend on the order the methods are compiled in",
                    "Give both annotations the same " + attributeName + orElse);
        }
    }

    /**
     * Tells whether two values of an attribute configure the same thing: class arrays as
     * sets, the durations and the jitter of a {@link Retryable} as the resolver reads
     * them. A value that does not parse is the same only as the same text.
     */
    private static boolean same(Annotation annotation, String attributeName, @Nullable Object ours,
            @Nullable Object theirs) {
        try {
            return ObjectUtils.nullSafeEquals(setting(annotation, attributeName, ours),
                    setting(annotation, attributeName, theirs));
        }
        catch (IllegalArgumentException ex) {
            return ObjectUtils.nullSafeEquals(ours, theirs);
        }
    }

    /**
     * Tells why a value does not parse, in the resolver's words.
     * @return the reason, or {@code null} when the value parses
     */
    private static @Nullable String unreadable(Annotation annotation, String attributeName, @Nullable Object value) {
        try {
            setting(annotation, attributeName, value);
            return null;
        }
        catch (IllegalArgumentException ex) {
            return isDuration(annotation, attributeName) ? "'" + value + "' is not a duration" : ex.getMessage();
        }
    }

    private static @Nullable Object setting(Annotation annotation, String attributeName, @Nullable Object value) {
        if (value instanceof Object[] items) {
            return new HashSet<>(Arrays.asList(items));
        }
        if (!(value instanceof String text) || text.isEmpty()) {
            return value;
        }
        if (isDuration(annotation, attributeName)) {
            return DurationStyle.detectAndParse(text);
        }
        if (annotation instanceof Bulkhead && "type".equals(attributeName)) {
            return text.strip().toLowerCase(Locale.ROOT);
        }
        return (annotation instanceof Retryable && "jitter".equals(attributeName)) ? Jitter.parse(text) : value;
    }

    private static boolean isDuration(Annotation annotation, String attributeName) {
        return DURATIONS.getOrDefault(annotation.annotationType(), Set.of()).contains(attributeName);
    }

    private static String render(@Nullable Object value) {
        if (value instanceof Class<?>[] types) {
            return Arrays.stream(types).map(Class::getSimpleName).collect(Collectors.joining(", ", "{", "}"));
        }
        return String.valueOf(value);
    }

    private static String kebabCase(String attributeName) {
        return attributeName.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }

    private static String suggestion(Declaration declaration, Declaration first) {
        String name;
        if (declaration.targetClass() == first.targetClass()) {
            name = InstanceNames.defaultName(declaration.targetClass(), declaration.method()) + "("
                    + parameterTypes(declaration.method()) + ")";
        }
        else {
            String[] segments = declaration.targetClass().getName().replace('$', '.').split("\\.");
            String qualifier = (segments.length > 1) ? segments[segments.length - 2] + "." : "";
            name = qualifier + InstanceNames.defaultName(declaration.targetClass(), declaration.method());
        }
        return "@" + declaration.annotation().annotationType().getSimpleName() + "(name = \"" + name + "\")";
    }

    private static String parameterTypes(Method method) {
        return Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", "));
    }

    /**
     * An annotation of a method of a bean.
     *
     * @param beanName the bean's name
     * @param targetClass the class the annotations are read from
     * ({@link TargetClasses#annotatedClass})
     * @param method the annotated method
     * @param annotation the annotation that names, or leaves unnamed, the instance
     */
    record Declaration(String beanName, Class<?> targetClass, Method method, Annotation annotation) {

        String subject() {
            return ResilientMethodCompiler.subject(this.beanName, this.targetClass, this.method);
        }

        String qualifiedName() {
            return this.targetClass.getName() + "#" + this.method.getName() + "(" + parameterTypes(this.method) + ")";
        }

        boolean isSameMethod(Declaration other) {
            return this.targetClass == other.targetClass && Objects.equals(this.method, other.method);
        }
    }

}
