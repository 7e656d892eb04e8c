package dev.resilience.aop;

import java.lang.reflect.Method;

import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * What a method returning a Kotlin {@code Flow} must be to go through the engine as a
 * method returning {@code Flux} does ({@code docs/design/reactive.md}): declared to
 * return {@code Flow} itself, since the proxy hands back a {@code Flow} of its own (a
 * {@code StateFlow} or {@code SharedFlow} it is not), and, for a function that is not
 * {@code suspend}, with kotlinx-coroutines-reactor and Reactor on the application's class
 * path, which adapt the {@code Flow} to a {@code Flux} and back ({@link FlowCalls}).
 * Spring's proxy does both for a {@code suspend} function, whose dependencies
 * {@link SuspendFunctions} checks. Kotlin is recognized by name and stays optional.
 */
final class FlowMethods {

    /**
     * A class of kotlinx-coroutines-reactor, which adapts a {@code Flow} to a
     * {@code Flux}.
     */
    static final String COROUTINES_REACTOR = "kotlinx.coroutines.reactor.ReactorFlowKt";

    private FlowMethods() {
    }

    /**
     * Tells whether a type is a Kotlin {@code Flow} or one of its subtypes.
     * @param type the type
     * @return {@code false} as well when Kotlin's coroutines are not on its class path
     */
    static boolean isFlow(Class<?> type) {
        return OptionalTypes.isAssignable(ReturnKind.FLOW_TYPE, type);
    }

    /**
     * Fails for a function that is not {@code suspend} returning a {@code Flow} the proxy
     * cannot carry as a {@code Flux}.
     * @param method the annotated method, whose return type is a {@code Flow}
     * @param subject the bean and method, for the failure analysis
     * @param classLoader the application's class loader
     * @throws InvalidResiliencePolicyException when the method returns a subtype of
     * {@code Flow}, or kotlinx-coroutines-reactor or Reactor is missing
     */
    static void requireSupported(Method method, String subject, @Nullable ClassLoader classLoader) {
        ResolvableType returnType = ResolvableType.forMethodReturnType(method);
        requireFlowItself(method, returnType, subject);
        if (!ClassUtils.isPresent(COROUTINES_REACTOR, classLoader) || FlowCalls.adapter() == null) {
            throw new InvalidResiliencePolicyException(subject, "return type", returnType.toString(),
                    "a Flow is protected only when kotlinx-coroutines-reactor is on the application's class path, "
                            + "and " + COROUTINES_REACTOR + " is not: the Flow goes through the engine as a Reactor "
                            + "Flux (asFlux, asFlow)",
                    "Add org.jetbrains.kotlinx:kotlinx-coroutines-reactor to the application's dependencies.");
        }
        if (!ClassUtils.isPresent(ReturnKind.FLUX_TYPE, classLoader)) {
            throw new InvalidResiliencePolicyException(subject, "return type", returnType.toString(),
                    "a Flow goes through the engine as a Reactor Flux, and " + ReturnKind.FLUX_TYPE
                            + " is not on the application's class path",
                    "Add io.projectreactor:reactor-core to the application's dependencies.");
        }
    }

    /**
     * Fails for a method, {@code suspend} or not, whose {@code Flow} is declared as a
     * subtype of {@code Flow}: each collection of the {@code Flow} the proxy hands back
     * is one call, and that {@code Flow} is of no such type.
     * @param method the annotated method
     * @param returnType its return type, the Kotlin one for a {@code suspend} function
     * @param subject the bean and method, for the failure analysis
     * @throws InvalidResiliencePolicyException for a subtype of {@code Flow}
     */
    static void requireFlowItself(Method method, ResolvableType returnType, String subject) {
        Class<?> type = returnType.resolve(Object.class);
        if (ReturnKind.FLOW_TYPE.equals(type.getName())) {
            return;
        }
        throw new InvalidResiliencePolicyException(subject, "return type", returnType.toString(),
                "the proxy hands back a Flow of its own, each collection of which is one call, and that Flow is no "
                        + type.getSimpleName(),
                "Declare '" + method.getName() + "' to return Flow<T>, or leave the " + type.getSimpleName()
                        + " unannotated and protect the method that fills it.");
    }

}
