package dev.resilience.aop;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.InvalidResiliencePolicyException;

import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * What an annotated method must be for the proxy to protect it: a method the proxy can
 * intercept (not private, final or static), returning a value, {@code void}, an
 * {@code ExecutionResult}, or a {@code CompletionStage} or {@code CompletableFuture}. A plain
 * {@link Future}, a reactive type or a Kotlin {@code suspend} function hands its outcome back
 * after the call has ended, where no retry or breaker would see it, so each fails the start.
 * Reactor, Reactive Streams and Kotlin are recognized by name and stay optional.
 */
final class ProtectableMethods {

    private static final List<Class<? extends Annotation>> ANNOTATIONS = List.of(Retryable.class,
            CircuitGuarded.class, Fallback.class, Idempotent.class);

    private static final String PUBLISHER = "org.reactivestreams.Publisher";

    private static final String CONTINUATION = "kotlin.coroutines.Continuation";

    private ProtectableMethods() {
    }

    /**
     * Tells whether the proxy can intercept a method.
     * @param method the method
     * @return {@code false} for a private, final or static method
     */
    static boolean isInterceptable(Method method) {
        return (method.getModifiers() & (Modifier.PRIVATE | Modifier.FINAL | Modifier.STATIC)) == 0;
    }

    /**
     * Fails when a method carries one of the annotations itself but the proxy cannot
     * intercept it. A class-level annotation never applies to such a method, and a fallback
     * method carries none, so neither fails. The methods of a JDK proxy class are all final,
     * but calls reach them through its interfaces, so none of them fails.
     * @param method a method of the class the bean's annotations are read from
     * @param subject the bean and method, for the failure analysis
     * @throws InvalidResiliencePolicyException when the method is private, final or static
     */
    static void requireInterceptable(Method method, String subject) {
        if (isInterceptable(method) || Proxy.isProxyClass(method.getDeclaringClass())) {
            return;
        }
        String annotations = ANNOTATIONS.stream()
            .filter((type) -> AnnotatedElementUtils.hasAnnotation(method, type))
            .map((type) -> "@" + type.getSimpleName())
            .collect(Collectors.joining(", "));
        if (annotations.isEmpty()) {
            return;
        }
        int modifiers = method.getModifiers();
        String name = "'" + method.getName() + "'";
        if (Modifier.isStatic(modifiers)) {
            throw notInterceptable(method, subject, annotations, "static",
                    "Make " + name + " an instance method of the bean and call it through the bean, or remove "
                            + annotations + ".");
        }
        if (Modifier.isPrivate(modifiers)) {
            throw notInterceptable(method, subject, annotations, "private", "Make " + name
                    + " public, protected or package-private and call it through the bean, or remove " + annotations
                    + ".");
        }
        throw notInterceptable(method, subject, annotations, "final",
                "Remove final from " + name + ", or remove " + annotations + ".");
    }

    /**
     * Fails when a method returns a type whose outcome the pipeline cannot see.
     * @param method the annotated method
     * @param subject the bean and method, for the failure analysis
     * @throws InvalidResiliencePolicyException for a {@link Future} that is not a
     * {@link CompletionStage}, a {@link CompletionStage} the pipeline cannot return, a
     * reactive type, or a Kotlin {@code suspend} function
     */
    static void requireSupportedReturnType(Method method, String subject) {
        Class<?> type = method.getReturnType();
        String returnType = method.getGenericReturnType().getTypeName();
        if (isSuspending(method)) {
            throw new InvalidResiliencePolicyException(subject, "suspend", describe(method),
                    "Kotlin suspend functions are not supported yet: the call would end when the function first "
                            + "suspends, so its failures would be neither retried nor recorded by a breaker",
                    "Declare a function that is not suspend and returns CompletableFuture (kotlinx.coroutines' "
                            + "future { } builds one), or the value itself.");
        }
        if (CompletionStage.class.isAssignableFrom(type)) {
            if (!ReturnKind.isSupportedStage(type)) {
                throw new InvalidResiliencePolicyException(subject, "return type", type.getName(),
                        "only CompletionStage and CompletableFuture are supported among asynchronous types",
                        "Declare the method to return CompletionStage or CompletableFuture.");
            }
            return;
        }
        if (Future.class.isAssignableFrom(type)) {
            throw new InvalidResiliencePolicyException(subject, "return type", returnType,
                    "a Future that is not a CompletionStage tells nobody when it completes: the call would end "
                            + "when the Future is returned, so its failures would be neither retried nor recorded by "
                            + "a breaker",
                    "Return CompletableFuture or CompletionStage (CompletableFuture.supplyAsync builds one), or the "
                            + "value itself.");
        }
        if (isReactive(type)) {
            throw new InvalidResiliencePolicyException(subject, "return type", returnType,
                    "reactive types are not supported yet: the call would end when the publisher is returned, before "
                            + "it emits, so its errors would be neither retried nor recorded by a breaker",
                    "Return CompletableFuture or CompletionStage (Mono#toFuture() gives one), or the value itself.");
        }
    }

    private static InvalidResiliencePolicyException notInterceptable(Method method, String subject,
            String annotations, String modifier, String fix) {
        return new InvalidResiliencePolicyException(subject, annotations, declaration(method),
                "the Spring proxy cannot intercept a " + modifier + " method, so " + annotations
                        + " would never apply to it",
                fix);
    }

    private static boolean isSuspending(Method method) {
        Class<?>[] parameters = method.getParameterTypes();
        return parameters.length > 0 && CONTINUATION.equals(parameters[parameters.length - 1].getName());
    }

    private static boolean isReactive(Class<?> type) {
        if (Flow.Publisher.class.isAssignableFrom(type) || OptionalTypes.isAssignable(PUBLISHER, type)) {
            return true;
        }
        return ReactiveAdapterRegistry.getSharedInstance().getAdapter(type) != null;
    }

    private static String declaration(Method method) {
        int visible = method.getModifiers()
                & (Modifier.PUBLIC | Modifier.PROTECTED | Modifier.PRIVATE | Modifier.STATIC | Modifier.FINAL);
        String modifiers = Modifier.toString(visible);
        return (modifiers.isEmpty() ? "" : modifiers + " ") + method.getReturnType().getSimpleName() + " "
                + describe(method);
    }

    private static String describe(Method method) {
        return method.getName() + "(" + Arrays.stream(method.getParameterTypes())
            .map(Class::getSimpleName)
            .collect(Collectors.joining(", ")) + ")";
    }
}
