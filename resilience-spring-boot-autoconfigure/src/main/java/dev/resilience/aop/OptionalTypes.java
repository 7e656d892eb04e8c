package dev.resilience.aop;

import org.springframework.util.ClassUtils;

/**
 * Types of optional dependencies (Reactive Streams, the Servlet API, Spring MVC), known
 * by name so that none of them is needed on the classpath.
 */
final class OptionalTypes {

    private OptionalTypes() {
    }

    /**
     * Tells whether a type is, extends or implements the type of a name.
     * @param typeName the fully qualified name of the optional type
     * @param type the type to test
     * @return {@code false} as well when the optional type is not on the type's classpath
     */
    static boolean isAssignable(String typeName, Class<?> type) {
        ClassLoader classLoader = type.getClassLoader();
        return ClassUtils.isPresent(typeName, classLoader)
                && ClassUtils.resolveClassName(typeName, classLoader).isAssignableFrom(type);
    }

}
