package dev.resilience.registry;

import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.log.LogMessage;
import org.springframework.util.ObjectUtils;

/**
 * The names of one kind of instance that were resolved without an annotation (by the HTTP
 * client, {@code ResilienceTemplate}, or a bean asking for them by name before the
 * annotated methods were compiled), and the refusal of an annotation that would configure
 * such an instance: the registry resolves a name once, so that annotation's settings
 * would never apply. An annotation that only names the instance is welcome, and so is
 * {@code retryOnResult}, which each method applies to its own copy of the retry policy.
 * Thread-safe.
 */
final class UnreadAnnotations {

    /** The attributes a method applies itself, whatever resolved its instance. */
    private static final Set<String> APPLIED_BY_THE_METHOD = Set.of("retryOnResult");

    /** The attributes that no property sets. */
    private static final Set<String> ANNOTATION_ONLY = Set.of("failOnResult");

    private static final Log logger = LogFactory.getLog(ResilienceRegistry.class);

    private final String kind;

    private final String propertyPrefix;

    private final Set<String> resolvedWithoutAnnotation = ConcurrentHashMap.newKeySet();

    private final Set<String> warned = ConcurrentHashMap.newKeySet();

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
     * Warns, once per name, of an annotation that sets anything of an instance resolved
     * without one.
     * @param name the instance's name
     * @param annotation the annotation that names it
     * @return whether the annotation sets something that does not apply
     */
    boolean check(String name, Annotation annotation) {
        if (!this.resolvedWithoutAnnotation.contains(name)) {
            return false;
        }
        List<String> settings = new ArrayList<>();
        List<String> properties = new ArrayList<>();
        AnnotationUtils.getAnnotationAttributes(annotation).forEach((attribute, value) -> {
            if (!"value".equals(attribute) && !"name".equals(attribute) && !APPLIED_BY_THE_METHOD.contains(attribute)
                    && !ObjectUtils.nullSafeEquals(value, AnnotationUtils.getDefaultValue(annotation, attribute))) {
                settings.add(attribute + " = " + ObjectUtils.nullSafeToString(value));
                if (!ANNOTATION_ONLY.contains(attribute)) {
                    properties.add(this.propertyPrefix + name + "." + kebabCase(attribute));
                }
            }
        });
        if (settings.isEmpty()) {
            return false;
        }
        if (this.warned.add(name)) {
            logger.warn(LogMessage.format(
                    "@%s(%s) does not apply: the %s '%s' was resolved without an annotation (by ResilienceTemplate "
                            + "or a bean asking for it by name before the annotated methods were read, or from "
                            + "resilience.* instances before a method compiled at its first call), and a name is "
                            + "resolved once. %s the method's %s a name of its own.",
                    annotation.annotationType().getSimpleName(), String.join(", ", settings), this.kind, name,
                    properties.isEmpty() ? "Give" : "Set " + String.join(", ", properties) + " instead, or give",
                    this.kind));
        }
        return true;
    }

    private static String kebabCase(String attributeName) {
        return attributeName.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

}
