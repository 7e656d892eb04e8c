package dev.resilience.registry;

import java.lang.annotation.Annotation;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ObjectUtils;

/**
 * The names of one kind of instance that were resolved without an annotation (by the HTTP
 * client, {@code ResilienceTemplate}, or a bean asking for them by name before the
 * annotated methods were compiled), and the refusal of an annotation that would configure
 * such an instance: the registry resolves a name once, so that annotation's settings
 * would never apply. An annotation that only names the instance is welcome. Thread-safe.
 */
final class UnreadAnnotations {

    private final String kind;

    private final String propertyPrefix;

    private final Set<String> resolvedWithoutAnnotation = ConcurrentHashMap.newKeySet();

    /**
     * Creates the record of one kind of instance.
     * @param kind how an instance is called in messages, such as {@code "retry instance"}
     * @param propertyPrefix the prefix of its instance properties, such as
     * {@code "resilience.retry.instances."}
     */
    UnreadAnnotations(String kind, String propertyPrefix) {
        this.kind = kind;
        this.propertyPrefix = propertyPrefix;
    }

    /**
     * Records that a name is being resolved without an annotation.
     * @param name the instance's name
     */
    void resolvedWithout(String name) {
        this.resolvedWithoutAnnotation.add(name);
    }

    /**
     * Refuses an annotation that sets anything of an instance resolved without one.
     * @param name the instance's name
     * @param annotation the annotation that names it
     * @throws InvalidResiliencePolicyException when the annotation sets an attribute
     * other than the name
     */
    void check(String name, Annotation annotation) {
        if (!this.resolvedWithoutAnnotation.contains(name)) {
            return;
        }
        Map<String, Object> attributes = AnnotationUtils.getAnnotationAttributes(annotation);
        for (Map.Entry<String, Object> attribute : attributes.entrySet()) {
            String attributeName = attribute.getKey();
            if ("value".equals(attributeName) || "name".equals(attributeName) || ObjectUtils
                .nullSafeEquals(attribute.getValue(), AnnotationUtils.getDefaultValue(annotation, attributeName))) {
                continue;
            }
            String annotationName = "@" + annotation.annotationType().getSimpleName();
            String property = this.propertyPrefix + name + "." + kebabCase(attributeName);
            throw new InvalidResiliencePolicyException(this.kind + " '" + name + "'",
                    annotationName + "(" + attributeName + ")", ObjectUtils.nullSafeToString(attribute.getValue()),
                    "the " + this.kind + " was created without an annotation (by the HTTP client, ResilienceTemplate "
                            + "or a bean that asked for it by name) before the annotated methods were read, and a "
                            + "name is resolved once, so the settings of " + annotationName + " would never apply",
                    "Set " + property + " and leave " + attributeName + " out of the annotation, or give the "
                            + "annotated method's " + this.kind + " a name of its own.");
        }
    }

    private static String kebabCase(String attributeName) {
        return attributeName.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

}
