package dev.resilience.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.LinkedHashSet;
import java.util.Set;

import dev.resilience.annotation.Fallback;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.FactoryBean;
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
 * value type of an {@code @Idempotent} method or one with {@code @Fallback(lastGood)}
 * (what a {@code Mono}, a {@code CompletionStage} or a {@code suspend} function gives),
 * and the parameter types of a {@code @Retryable} method, whose arguments a dead letter
 * keeps for its re-drive; each as the bean's class resolves it, generics included.</li>
 * </ul>
 *
 * <p>
 * Registered in {@code META-INF/spring/aot.factories}; a bean without an annotated method
 * contributes nothing, and a {@code FactoryBean} is read as the class of the object it
 * makes.
 */
final class ResilientMethodsAotProcessor implements BeanRegistrationAotProcessor {

    private static final String KOTLIN_CONTINUATION = "kotlin.coroutines.Continuation";

    @Override
    public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
        Hints hints = hintsOf(beanClass(registeredBean));
        return hints.isEmpty() ? null
                : (generationContext, code) -> hints.registerOn(generationContext.getRuntimeHints());
    }

    /**
     * Returns the class whose methods the startup scan reads for a bean: that of the
     * object a {@code FactoryBean} makes, as the bean factory says it, rather than the
     * factory's own.
     */
    private static Class<?> beanClass(RegisteredBean registeredBean) {
        ResolvableType type = registeredBean.getBeanType();
        if (FactoryBean.class.isAssignableFrom(type.toClass())) {
            Object made = registeredBean.getMergedBeanDefinition().getAttribute(FactoryBean.OBJECT_TYPE_ATTRIBUTE);
            if (made instanceof Class<?> madeClass) {
                type = ResolvableType.forClass(madeClass);
            }
            else {
                type = (made instanceof ResolvableType madeType) ? madeType : type.as(FactoryBean.class).getGeneric(0);
            }
        }
        return ClassUtils.getUserClass(type.toClass());
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

        private final Set<Class<?>> bound = new LinkedHashSet<>();

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
                ResolvableType returned = ResolvableType.forMethodReturnType(method, this.beanClass);
                addResolved(ReturnKind.of(method).valueType(returned));
            }
            if (annotations.retryable() != null) {
                for (int i = 0; i < method.getParameterCount(); i++) {
                    ResolvableType parameter = ResolvableType.forMethodParameter(method, i, this.beanClass);
                    if (!ClassUtils.getQualifiedName(parameter.toClass()).equals(KOTLIN_CONTINUATION)) {
                        addResolved(parameter);
                    }
                }
            }
        }

        /**
         * Binds a stored type as the bean's class resolves it: its class and those of its
         * generics, since a type variable that a subclass binds stays a variable in the
         * declared type.
         */
        private void addResolved(ResolvableType type) {
            Class<?> resolved = type.resolve();
            if (resolved != null && resolved != void.class && resolved != Object.class) {
                this.bound.add(resolved);
            }
            for (ResolvableType generic : type.getGenerics()) {
                addResolved(generic);
            }
        }

        void registerOn(RuntimeHints hints) {
            ReflectionHints reflection = hints.reflection();
            reflection.registerType(this.beanClass);
            for (Method method : this.invoked) {
                reflection.registerMethod(method, ExecutableMode.INVOKE);
            }
            new BindingReflectionHintsRegistrar().registerReflectionHints(reflection, this.bound.toArray(Type[]::new));
        }

    }

}
