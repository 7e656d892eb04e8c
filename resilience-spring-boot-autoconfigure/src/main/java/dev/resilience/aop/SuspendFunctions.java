package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.concurrent.Future;

import dev.resilience.core.ExecutionResult;
import dev.resilience.registry.InvalidResiliencePolicyException;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.KotlinDetector;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * What a Kotlin {@code suspend} function must be to go through the engine as a
 * {@code Mono} does ({@code docs/design/reactive.md}). Spring's proxy invokes a suspend
 * function through {@code CoroutinesUtils}, which hands the advice a cold {@code Mono} of
 * the function's value, run in the caller's coroutine context without its {@code Job},
 * and awaits the {@code Mono} the advice returns in the caller's coroutine, so that
 * cancelling the coroutine cancels the subscription. The proxy does so only when
 * kotlinx-coroutines-reactor is on its class path, and {@code CoroutinesUtils} reads the
 * function through kotlin-reflect: without either the call would end when the function
 * first suspends, so the start fails, as it does for a function whose value hands its
 * outcome back later (a publisher, a future) or is an {@code ExecutionResult}. A function
 * returning {@code Flow} is handed a {@code Flux} of it and has the {@code Flux} it
 * returns turned into a {@code Flow}, so it goes as a method returning {@code Flux} does
 * ({@link FlowMethods}). Kotlin is recognized by name and stays optional.
 */
final class SuspendFunctions {

    /** The class Spring's proxy looks for before it bridges a suspend function. */
    static final String COROUTINES_REACTOR = "kotlinx.coroutines.reactor.MonoKt";

    private SuspendFunctions() {
    }

    /**
     * Fails for a {@code suspend} function the proxy cannot carry as a {@code Mono}.
     * @param method the annotated {@code suspend} function
     * @param subject the bean and method, for the failure analysis
     * @throws InvalidResiliencePolicyException when kotlinx-coroutines-reactor or
     * kotlin-reflect is missing, or the function's value is a publisher, a future, an
     * {@code ExecutionResult} or a subtype of {@code Flow}
     */
    static void requireSupported(Method method, String subject) {
        String declaration = "suspend fun " + method.getName();
        if (!ClassUtils.isPresent(COROUTINES_REACTOR, AopUtils.class.getClassLoader())) {
            throw new InvalidResiliencePolicyException(subject, "suspend", declaration,
                    "Spring's proxy awaits a suspend function as a Mono only when kotlinx-coroutines-reactor is on "
                            + "the class path, and it is not: the call would end when the function first suspends, "
                            + "so its failures would be neither retried nor recorded by a breaker",
                    "Add org.jetbrains.kotlinx:kotlinx-coroutines-reactor to the application's dependencies.");
        }
        if (!KotlinDetector.isKotlinReflectPresent()) {
            throw new InvalidResiliencePolicyException(subject, "suspend", declaration,
                    "Spring's proxy invokes a suspend function through kotlin-reflect, which is not on the class "
                            + "path",
                    "Add org.jetbrains.kotlin:kotlin-reflect to the application's dependencies.");
        }
        ResolvableType value = ResolvableType.forMethodReturnType(method);
        Class<?> type = value.resolve(Object.class);
        if (ExecutionResult.class.isAssignableFrom(type)) {
            throw new InvalidResiliencePolicyException(subject, "return type", value.toString(),
                    "an ExecutionResult, the account of a call, is returned only by a function that is not suspend: "
                            + "the caller of a suspend function awaits its value and catches its final error",
                    "Return the value itself from '" + method.getName() + "', or make it a function that is not "
                            + "suspend.");
        }
        if (FlowMethods.isFlow(type)) {
            FlowMethods.requireFlowItself(method, value, subject);
            return;
        }
        if (Future.class.isAssignableFrom(type) || isReactive(type)) {
            throw new InvalidResiliencePolicyException(subject, "return type", value.toString(),
                    "a suspend function is awaited for its value, and a " + type.getSimpleName()
                            + " as that value hands its outcome back after the call has ended, where no retry or "
                            + "breaker sees it",
                    "Await the " + type.getSimpleName() + " inside '" + method.getName()
                            + "' and return its value, or make it a function that is not suspend returning it.");
        }
    }

    private static boolean isReactive(Class<?> type) {
        return OptionalTypes.isAssignable("org.reactivestreams.Publisher", type)
                || ReactiveAdapterRegistry.getSharedInstance().getAdapter(type) != null;
    }

}
