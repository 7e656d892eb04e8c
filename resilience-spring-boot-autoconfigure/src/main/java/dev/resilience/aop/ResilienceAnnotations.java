package dev.resilience.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * The resilience annotations that apply to one method: its own, or, for a public method, its
 * class's. A method named as a fallback by its class's {@code @Fallback} is not itself
 * protected.
 *
 * @param retryable the retry annotation, if any
 * @param circuitGuarded the breaker annotation, if any
 * @param fallback the fallback annotation, if any
 * @param idempotent the idempotency annotation, if any
 */
record ResilienceAnnotations(@Nullable Retryable retryable, @Nullable CircuitGuarded circuitGuarded,
        @Nullable Fallback fallback, @Nullable Idempotent idempotent) {

    /**
     * Finds the annotations of a method as declared on a class.
     * @param method the most specific method
     * @param targetClass the class of the bean
     * @return the annotations, or {@code null} when none applies
     */
    static @Nullable ResilienceAnnotations find(Method method, Class<?> targetClass) {
        if (method.getDeclaringClass() == Object.class || method.isSynthetic() || method.isBridge()
                || Modifier.isStatic(method.getModifiers())) {
            return null;
        }
        boolean inheritsClassLevel = Modifier.isPublic(method.getModifiers()) && !isClassFallback(method, targetClass);
        Retryable retryable = find(method, targetClass, Retryable.class, inheritsClassLevel);
        CircuitGuarded circuitGuarded = find(method, targetClass, CircuitGuarded.class, inheritsClassLevel);
        Fallback fallback = find(method, targetClass, Fallback.class, inheritsClassLevel);
        Idempotent idempotent = AnnotatedElementUtils.findMergedAnnotation(method, Idempotent.class);
        if (retryable == null && circuitGuarded == null && fallback == null && idempotent == null) {
            return null;
        }
        return new ResilienceAnnotations(retryable, circuitGuarded, fallback, idempotent);
    }

    private static <A extends java.lang.annotation.Annotation> @Nullable A find(Method method, Class<?> targetClass,
            Class<A> type, boolean inheritsClassLevel) {
        A onMethod = AnnotatedElementUtils.findMergedAnnotation(method, type);
        if (onMethod != null || !inheritsClassLevel) {
            return onMethod;
        }
        return AnnotatedElementUtils.findMergedAnnotation(targetClass, type);
    }

    private static boolean isClassFallback(Method method, Class<?> targetClass) {
        Fallback classFallback = AnnotatedElementUtils.findMergedAnnotation(targetClass, Fallback.class);
        if (classFallback == null) {
            return false;
        }
        for (String name : classFallback.value()) {
            if (name.equals(method.getName())) {
                return true;
            }
        }
        return false;
    }
}
