package dev.resilience.aop;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Hedged;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.RateLimited;
import dev.resilience.annotation.Retryable;
import dev.resilience.annotation.TimeLimited;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

/**
 * The resilience annotations that apply to one method: its own, or, for a public method,
 * those of the class that declares it. As with {@code @Transactional}, a class-level
 * annotation applies to the public methods that the annotated class (or a subclass)
 * declares itself: not to methods inherited from its superclasses, not to
 * {@code toString}, {@code equals} or {@code hashCode}. A private, final or static method
 * is never protected (a method annotated itself fails the start: see
 * {@link ProtectableMethods}). A method named as a fallback by its class's
 * {@code @Fallback} is not itself protected. The pointcut, the startup scan and the
 * interceptor all decide through {@link #find}, on the class {@link TargetClasses} gives,
 * so they agree on every method; for a JDK proxy that class is one of its interfaces.
 *
 * @param retryable the retry annotation, if any
 * @param circuitGuarded the breaker annotation, if any
 * @param fallback the fallback annotation, if any
 * @param idempotent the idempotency annotation, if any
 * @param bulkhead the bulkhead annotation, if any
 * @param rateLimited the rate limiter annotation, if any
 * @param timeLimited the time limiter annotation, if any
 * @param hedged the hedging annotation, if any
 */
record ResilienceAnnotations(@Nullable Retryable retryable, @Nullable CircuitGuarded circuitGuarded,
        @Nullable Fallback fallback, @Nullable Idempotent idempotent, @Nullable Bulkhead bulkhead,
        @Nullable RateLimited rateLimited, @Nullable TimeLimited timeLimited, @Nullable Hedged hedged) {

    /**
     * Finds the annotations that apply to a method.
     * @param method the most specific method of the class the bean's annotations are read
     * from ({@link TargetClasses#specificMethod})
     * @return the annotations, or {@code null} when none applies
     */
    static @Nullable ResilienceAnnotations find(Method method) {
        if (method.getDeclaringClass() == Object.class || method.isSynthetic() || method.isBridge()
                || !ProtectableMethods.isInterceptable(method)) {
            return null;
        }
        Class<?> annotatedClass = takesClassLevel(method) ? method.getDeclaringClass() : null;
        Retryable retryable = find(method, annotatedClass, Retryable.class);
        CircuitGuarded circuitGuarded = find(method, annotatedClass, CircuitGuarded.class);
        Fallback fallback = find(method, annotatedClass, Fallback.class);
        Idempotent idempotent = AnnotatedElementUtils.findMergedAnnotation(method, Idempotent.class);
        Bulkhead bulkhead = find(method, annotatedClass, Bulkhead.class);
        RateLimited rateLimited = find(method, annotatedClass, RateLimited.class);
        TimeLimited timeLimited = find(method, annotatedClass, TimeLimited.class);
        Hedged hedged = find(method, annotatedClass, Hedged.class);
        if (retryable == null && circuitGuarded == null && fallback == null && idempotent == null && bulkhead == null
                && rateLimited == null && timeLimited == null && hedged == null) {
            return null;
        }
        return new ResilienceAnnotations(retryable, circuitGuarded, fallback, idempotent, bulkhead, rateLimited,
                timeLimited, hedged);
    }

    private static <A extends Annotation> @Nullable A find(Method method, @Nullable Class<?> annotatedClass,
            Class<A> type) {
        A onMethod = AnnotatedElementUtils.findMergedAnnotation(method, type);
        if (onMethod != null || annotatedClass == null) {
            return onMethod;
        }
        return AnnotatedElementUtils.findMergedAnnotation(annotatedClass, type);
    }

    private static boolean takesClassLevel(Method method) {
        return Modifier.isPublic(method.getModifiers()) && !ReflectionUtils.isObjectMethod(method)
                && !isClassFallback(method);
    }

    private static boolean isClassFallback(Method method) {
        Fallback classFallback = AnnotatedElementUtils.findMergedAnnotation(method.getDeclaringClass(), Fallback.class);
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
