package dev.resilience.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.resilience.annotation.Fallback;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Registers, ahead of time, the runtime hints that the annotated methods of a bean need
 * in a native image, found on its class by the rules of the startup scan
 * ({@link ResilienceAnnotations#find}):
 *
 * <ul>
 * <li>the class itself, whose methods the scan reads, and its annotated methods, which a
 * dead-letter re-drive invokes;</li>
 * <li>every method named by a {@code @Fallback}, invoked reflectively when the call fails
 * (every overload of the name: the start picks the one that fits);</li>
 * <li>Jackson binding of the value types that the stores write and read as JSON: the
 * return type of an {@code @Idempotent} method or one with {@code @Fallback(lastGood)},
 * generics included, and the parameter types of a {@code @Retryable} method, whose
 * arguments a dead letter keeps for its re-drive.</li>
 * </ul>
 *
 * <p>
 * Registered in {@code META-INF/spring/aot.factories}; a bean without an annotated method
 * contributes nothing.
 */
final class ResilientMethodsAotProcessor implements BeanRegistrationAotProcessor {

    private static final String KOTLIN_CONTINUATION = "kotlin.coroutines.Continuation";

    @Override
    public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
        Class<?> beanClass = ClassUtils.getUserClass(registeredBean.getBeanType().toClass());
        Hints hints = hintsOf(beanClass);
        return hints.isEmpty() ? null
                : (generationContext, code) -> hints.registerOn(generationContext.getRuntimeHints());
    }

    /**
     * Finds the hints that the annotated methods of a class need.
     * @param beanClass the class of a bean
     * @return the hints, empty when no method of the class is annotated
     */
    static Hints hintsOf(Class<?> beanClass) {
        Hints hints = new Hints(beanClass);
        ReflectionUtils.doWithMethods(beanClass, (method) -> {
            ResilienceAnnotations annotations = ResilienceAnnotations.find(method);
            if (annotations != null) {
                hints.add(method, annotations);
            }
        }, (method) -> ReflectionUtils.USER_DECLARED_METHODS.matches(method)
                && ClassUtils.getMostSpecificMethod(method, beanClass).equals(method));
        return hints;
    }

    /**
     * The methods to invoke and the types to bind of one bean class.
     */
    static final class Hints {

        private final Class<?> beanClass;

        private final Set<Method> invoked = new LinkedHashSet<>();

        private final List<Type> bound = new ArrayList<>();

        Hints(Class<?> beanClass) {
            this.beanClass = beanClass;
        }

        boolean isEmpty() {
            return this.invoked.isEmpty();
        }

        void add(Method method, ResilienceAnnotations annotations) {
            this.invoked.add(method);
            Fallback fallback = annotations.fallback();
            if (fallback != null) {
                for (String name : fallback.value()) {
                    for (Method candidate : ReflectionUtils.getUniqueDeclaredMethods(this.beanClass,
                            ReflectionUtils.USER_DECLARED_METHODS)) {
                        if (candidate.getName().equals(name)) {
                            this.invoked.add(candidate);
                        }
                    }
                }
            }
            if (annotations.idempotent() != null || (fallback != null && !fallback.lastGood().isBlank())) {
                this.bound.add(method.getGenericReturnType());
            }
            if (annotations.retryable() != null) {
                for (Type parameter : method.getGenericParameterTypes()) {
                    if (!ClassUtils.getQualifiedName(rawClass(parameter)).equals(KOTLIN_CONTINUATION)) {
                        this.bound.add(parameter);
                    }
                }
            }
        }

        void registerOn(RuntimeHints hints) {
            ReflectionHints reflection = hints.reflection();
            reflection.registerType(this.beanClass);
            for (Method method : this.invoked) {
                reflection.registerMethod(method, ExecutableMode.INVOKE);
            }
            new BindingReflectionHintsRegistrar().registerReflectionHints(reflection,
                    this.bound.stream().filter((type) -> rawClass(type) != void.class).toArray(Type[]::new));
        }

        private static Class<?> rawClass(Type type) {
            return ResolvableType.forType(type).toClass();
        }

    }

}
