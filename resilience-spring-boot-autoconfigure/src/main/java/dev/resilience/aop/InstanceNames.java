package dev.resilience.aop;

import java.lang.reflect.Method;

import dev.resilience.annotation.Idempotent;

/**
 * The names of the instances an annotated method uses when its annotations leave them
 * empty: {@code SimpleClassName#method}.
 */
public final class InstanceNames {

    private InstanceNames() {
    }

    /**
     * Returns the name of a method's instances when its annotation names none.
     * @param type the bean's user class, or the interface of a bean that is a JDK proxy
     * @param method the method
     * @return {@code SimpleClassName#method}
     */
    public static String defaultName(Class<?> type, Method method) {
        return type.getSimpleName() + "#" + method.getName();
    }

    /**
     * Returns the name of a method's idempotency policy.
     * @param type the bean's user class, or the interface of a bean that is a JDK proxy
     * @param method the method
     * @param idempotent its annotation
     * @return the annotation's name, or the default name when it is blank
     */
    public static String idempotencyName(Class<?> type, Method method, Idempotent idempotent) {
        return idempotent.name().isBlank() ? defaultName(type, method) : idempotent.name();
    }

}
