package dev.resilience.aop;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Hedged;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.RateLimited;
import dev.resilience.annotation.Retryable;
import dev.resilience.annotation.TimeLimited;
import dev.resilience.registry.InvalidResiliencePolicyException;
import dev.resilience.core.ExecutionResult;
import org.jspecify.annotations.Nullable;

import org.springframework.core.KotlinDetector;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.ClassUtils;

/**
 * What an annotated method must be for the proxy to protect it: a method the proxy can
 * intercept (not private, final or static), returning a value, {@code void}, an
 * {@code ExecutionResult}, a {@code CompletionStage} or {@code CompletableFuture}, or a
 * Reactor {@code Mono} or {@code Flux} when Reactor is on the application's class path, a
 * Kotlin {@code Flow} ({@link FlowMethods}), or a Kotlin {@code suspend} function that
 * Spring's proxy awaits as a {@code Mono} or whose {@code Flow} it hands back
 * ({@link SuspendFunctions}). A plain {@link Future} or another reactive type (a
 * {@code Publisher}) hands its outcome back after the call has ended, where no retry or
 * breaker would see it, so each fails the start. So does a task that Spring MVC runs
 * after the method has returned ({@link Callable}, {@code WebAsyncTask},
 * {@code DeferredResult}, {@code StreamingResponseBody}, {@code ResponseBodyEmitter} and
 * {@code SseEmitter}), returned as it is, as the body of a {@code ResponseEntity} or
 * inside a {@code CompletionStage} or {@code ExecutionResult}: the pipeline would retry,
 * guard and store the task instead of its work, so an idempotent replay would run the
 * work again. This holds on every bean, not only on controllers. Reactor, Reactive
 * Streams, Kotlin and Spring MVC are recognized by name and stay optional.
 */
final class ProtectableMethods {

    private static final List<Class<? extends Annotation>> ANNOTATIONS = List.of(Retryable.class, CircuitGuarded.class,
            Fallback.class, Idempotent.class, Bulkhead.class, RateLimited.class, TimeLimited.class, Hedged.class);

    private static final String PUBLISHER = "org.reactivestreams.Publisher";

    private static final String HTTP_ENTITY = "org.springframework.http.HttpEntity";

    private static final List<String> DEFERRED_WORK = List.of(Callable.class.getName(),
            "org.springframework.web.context.request.async.WebAsyncTask",
            "org.springframework.web.context.request.async.DeferredResult",
            "org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody",
            "org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter");

    private static final List<String> ASYNC = List.of("org.springframework.scheduling.annotation.Async",
            "jakarta.ejb.Asynchronous");

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
     * intercept it. A class-level annotation never applies to such a method, and a
     * fallback method carries none, so neither fails. The methods of a JDK proxy class
     * are all final, but calls reach them through its interfaces, so none of them fails.
     * @param method a method of the class the bean's annotations are read from
     * @param subject the bean and method, for the failure analysis
     * @throws InvalidResiliencePolicyException when the method is private, final or
     * static
     */
    static void requireInterceptable(Method method, String subject) {
        if (isInterceptable(method) || Proxy.isProxyClass(method.getDeclaringClass())) {
            return;
        }
        String annotations = annotations(method);
        if (annotations.isEmpty()) {
            return;
        }
        int modifiers = method.getModifiers();
        String name = "'" + method.getName() + "'";
        if (Modifier.isStatic(modifiers)) {
            throw notInterceptable(method, subject, annotations, "static", "Make " + name
                    + " an instance method of the bean and call it through the bean, or remove " + annotations + ".");
        }
        if (Modifier.isPrivate(modifiers)) {
            throw notInterceptable(method, subject, annotations, "private",
                    "Make " + name + " public, protected or package-private and call it through the bean, or remove "
                            + annotations + ".");
        }
        String open = KotlinDetector.isKotlinType(method.getDeclaringClass())
                ? "Declare " + name + " open (a Kotlin function is final unless it is open; the kotlin-spring "
                        + "compiler plugin opens the members of classes annotated @Component, @Service and the like)"
                : "Remove final from " + name;
        throw notInterceptable(method, subject, annotations, "final", open + ", or remove " + annotations + ".");
    }

    /**
     * Fails when a method carries one of the annotations itself but the bean is a JDK
     * dynamic proxy ({@code spring.aop.proxy-target-class=false}, a bean that implements
     * interfaces) none of whose interfaces declares the method: the proxy can only ever
     * intercept the methods of those interfaces. A class-level annotation never applies
     * to such a method, so it does not fail.
     * @param method a method of the bean's class
     * @param proxiedInterfaces the interfaces the bean's JDK proxy implements, or
     * {@code null} when the bean is no JDK proxy
     * @param subject the bean and method, for the failure analysis
     * @throws InvalidResiliencePolicyException when no proxied interface declares the
     * method
     */
    static void requireReachable(Method method, Class<?> @Nullable [] proxiedInterfaces, String subject) {
        if (proxiedInterfaces == null || Modifier.isStatic(method.getModifiers())) {
            return;
        }
        for (Class<?> proxied : proxiedInterfaces) {
            if (ClassUtils.hasMethod(proxied, method.getName(), method.getParameterTypes())) {
                return;
            }
        }
        String annotations = annotations(method);
        if (annotations.isEmpty()) {
            return;
        }
        String interfaces = Arrays.stream(proxiedInterfaces)
            .map(Class::getSimpleName)
            .collect(Collectors.joining(", "));
        throw new InvalidResiliencePolicyException(subject, annotations, declaration(method),
                "the bean is a JDK dynamic proxy of its interfaces (" + interfaces
                        + "), none of which declares the method, so calls never reach it through the proxy and "
                        + annotations + " would never apply to it",
                "Declare '" + method.getName() + "' on an interface the bean implements, let Spring proxy the class "
                        + "(spring.aop.proxy-target-class=true, Boot's default), or remove " + annotations + ".");
    }

    private static String annotations(Method method) {
        return ANNOTATIONS.stream()
            .filter((type) -> AnnotatedElementUtils.hasAnnotation(method, type))
            .map((type) -> "@" + type.getSimpleName())
            .collect(Collectors.joining(", "));
    }

    /**
     * Fails when a method returns a type whose outcome the pipeline cannot see.
     * @param method the annotated method
     * @param subject the bean and method, for the failure analysis
     * @param classLoader the application's class loader, which Reactor and Kotlin's
     * coroutines are looked for on
     * @throws InvalidResiliencePolicyException for a {@link Future} that is not a
     * {@link CompletionStage}, a {@link CompletionStage} the pipeline cannot return, a
     * reactive type other than a {@code Mono}, {@code Flux} or Kotlin {@code Flow} (or
     * one of them without the libraries that carry it), a Kotlin {@code suspend} function
     * the proxy cannot carry, or a task that Spring MVC runs after the method has
     * returned
     */
    static void requireSupportedReturnType(Method method, String subject, @Nullable ClassLoader classLoader) {
        Class<?> type = method.getReturnType();
        String returnType = method.getGenericReturnType().getTypeName();
        Class<?> deferredWork = deferredWork(ResolvableType.forMethodReturnType(method), 0);
        if (deferredWork != null) {
            throw new InvalidResiliencePolicyException(subject, "return type", returnType,
                    "a " + deferredWork.getSimpleName() + " does its work after the method has returned: the "
                            + "annotations would retry, guard and store the " + deferredWork.getSimpleName()
                            + " itself, not its work, so a replay of an idempotent call would run the work again",
                    "Return the value itself (ResponseEntity or the body), or a CompletableFuture or CompletionStage "
                            + "of it, which Spring MVC also answers asynchronously.");
        }
        if (ReturnKind.isSuspending(method)) {
            SuspendFunctions.requireSupported(method, subject);
            return;
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
        if (ReturnKind.MONO_TYPE.equals(type.getName()) || ReturnKind.FLUX_TYPE.equals(type.getName())) {
            if (!ClassUtils.isPresent(ReturnKind.MONO_TYPE, classLoader)) {
                throw new InvalidResiliencePolicyException(subject, "return type", returnType,
                        "a " + type.getSimpleName() + " is protected only when Reactor is on the application's "
                                + "class path, and " + type.getName() + " is not",
                        "Add io.projectreactor:reactor-core to the application's dependencies.");
            }
            return;
        }
        if (FlowMethods.isFlow(type)) {
            FlowMethods.requireSupported(method, subject, classLoader);
            return;
        }
        if (isReactive(type)) {
            throw new InvalidResiliencePolicyException(subject, "return type", returnType,
                    "reactive types other than Mono and Flux are not supported yet: the call would end when the "
                            + "publisher is returned, before it emits, so its errors would be neither retried nor "
                            + "recorded by a breaker",
                    "Return Mono or Flux (Flux.from(publisher) gives one), CompletableFuture or CompletionStage, or "
                            + "the value itself.");
        }
    }

    /**
     * Refuses an {@link Idempotent} method that Spring's {@code @Async} (or
     * {@code jakarta.ejb.Asynchronous}) hands to an executor before our advice runs: its
     * key's scope would be resolved on the executor's thread, where the caller's security
     * context is not, so every caller's keys would meet in one scope and one caller would
     * receive another's replay.
     * @param method the method
     * @param targetClass the class its annotations are read from
     * @param subject the method's description for a failure analysis
     * @throws InvalidResiliencePolicyException when the method or its class is
     * asynchronous
     */
    static void requireCallersThread(Method method, Class<?> targetClass, String subject) {
        Method specific = ClassUtils.getMostSpecificMethod(method, targetClass);
        for (String name : ASYNC) {
            if (hasAnnotation(name, specific) || hasAnnotation(name, method) || hasAnnotation(name, targetClass)
                    || hasAnnotation(name, method.getDeclaringClass())) {
                throw new InvalidResiliencePolicyException(subject, "@Async", declaration(method),
                        "@Async runs the method on an executor before @Idempotent sees the call, so the key's caller "
                                + "scope would be resolved on the executor's thread, where the caller's security "
                                + "context is not: the keys of every caller would meet, and one caller could receive "
                                + "another's replay",
                        "Drop @Async and return a CompletableFuture that hands the work to an executor "
                                + "(CompletableFuture.supplyAsync(work, executor)): the key and its scope are then "
                                + "taken on the caller's thread.");
            }
        }
    }

    private static boolean hasAnnotation(String name, AnnotatedElement element) {
        return MergedAnnotations.from(element, SearchStrategy.TYPE_HIERARCHY).isPresent(name);
    }

    private static InvalidResiliencePolicyException notInterceptable(Method method, String subject, String annotations,
            String modifier, String fix) {
        return new InvalidResiliencePolicyException(subject, annotations, declaration(method),
                "the Spring proxy cannot intercept a " + modifier + " method, so " + annotations
                        + " would never apply to it",
                fix);
    }

    /**
     * Finds a task that does its work after the call in a type or in what the pipeline or
     * Spring MVC unwraps from it: the value of a {@code CompletionStage}, a {@code Mono}
     * or an {@code ExecutionResult}, the elements of a {@code Flux} or {@code Flow}, the
     * body of an {@code HttpEntity}.
     */
    private static @Nullable Class<?> deferredWork(ResolvableType type, int depth) {
        Class<?> resolved = type.resolve();
        if (resolved == null || depth > 3) {
            return null;
        }
        for (String name : DEFERRED_WORK) {
            if (OptionalTypes.isAssignable(name, resolved)) {
                return resolved;
            }
        }
        Class<?> wrapper = wrapper(resolved);
        return (wrapper != null) ? deferredWork(type.as(wrapper).getGeneric(0), depth + 1) : null;
    }

    private static @Nullable Class<?> wrapper(Class<?> type) {
        if (CompletionStage.class.isAssignableFrom(type)) {
            return CompletionStage.class;
        }
        if (ExecutionResult.class.equals(type)) {
            return ExecutionResult.class;
        }
        if (ReturnKind.MONO_TYPE.equals(type.getName()) || ReturnKind.FLUX_TYPE.equals(type.getName())
                || ReturnKind.FLOW_TYPE.equals(type.getName())) {
            return type;
        }
        return OptionalTypes.isAssignable(HTTP_ENTITY, type)
                ? ClassUtils.resolveClassName(HTTP_ENTITY, type.getClassLoader()) : null;
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
        String declared = ReturnKind.isSuspending(method) ? FallbackMethods.describe(method)
                : method.getReturnType().getSimpleName() + " " + describe(method);
        return (modifiers.isEmpty() ? "" : modifiers + " ") + declared;
    }

    private static String describe(Method method) {
        return method.getName() + "("
                + Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", "))
                + ")";
    }

}
