package dev.resilience.autoconfigure;

import dev.resilience.chaos.ChaosSettings;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Reads the exception class of {@code resilience.chaos.instances.<name>.exception}: a
 * {@link RuntimeException} chaos can create, so that an injected failure never reaches a
 * caller whose method does not declare it.
 */
final class ChaosExceptions {

    private ChaosExceptions() {
    }

    /**
     * Says what is wrong with a class name.
     * @param className the configured name
     * @return the problem, or {@code null} when chaos can throw that class
     */
    static @Nullable String problem(String className) {
        try {
            load(className);
            return null;
        }
        catch (IllegalArgumentException ex) {
            return "must name a RuntimeException with a public constructor taking a String or none: " + ex.getMessage();
        }
    }

    /**
     * Loads a class chaos can throw.
     * @param className the configured name
     * @return the class
     * @throws IllegalArgumentException when it cannot be loaded or thrown
     */
    @SuppressWarnings("unchecked")
    static Class<? extends RuntimeException> load(String className) {
        Class<?> type;
        try {
            type = ClassUtils.forName(className.trim(), ChaosExceptions.class.getClassLoader());
        }
        catch (ClassNotFoundException | LinkageError ex) {
            throw new IllegalArgumentException("class " + className + " not found");
        }
        ChaosSettings.requireInstantiable(type);
        return (Class<? extends RuntimeException>) type;
    }

}
