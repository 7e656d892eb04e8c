package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import dev.resilience.annotation.Fallback;
import dev.resilience.registry.InvalidResiliencePolicyException;
import dev.resilience.core.FallbackChain;
import dev.resilience.core.FallbackHandler;
import org.jspecify.annotations.Nullable;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Resolves the method names of a {@link Fallback} into a {@link FallbackChain}, by the
 * rules of the annotation: a method of the same bean (any visibility) taking the guarded
 * method's parameters, optionally followed by one {@code Throwable} parameter, and
 * returning a type assignable to the guarded method's return type, or, for a method
 * returning {@code Mono}, a {@code Mono} of its value type or that type, and for a method
 * returning {@code Flux}, a {@code Flux} of its element type, that type or an
 * {@code Iterable} of it, generics included; for a method returning a Kotlin
 * {@code Flow}, a {@code Flow} of its element type as well. A fallback of a Kotlin
 * {@code suspend} function takes its value parameters (the {@code Continuation} left out)
 * and may itself be {@code suspend}, unless the function returns {@code Flow}; it returns
 * the function's value type, or a {@code Mono} of it. A fallback of a Kotlin function
 * whose value is not nullable may not return a nullable type. Where both forms exist, the
 * one with the {@code Throwable} parameter is used.
 */
final class FallbackMethods {

    private static final String UNIT = "kotlin.Unit";

    private FallbackMethods() {
    }

    static FallbackChain resolve(Method guarded, Class<?> targetClass, Fallback annotation, String subject) {
        List<FallbackHandler> handlers = new ArrayList<>();
        for (String name : annotation.value()) {
            handlers.add(resolve(guarded, targetClass, name, subject));
        }
        if (handlers.isEmpty()) {
            throw new InvalidResiliencePolicyException(subject, "@Fallback", "{}", "it names no fallback method",
                    "Name at least one method of the bean, such as @Fallback(\"" + guarded.getName() + "Fallback\").");
        }
        return new FallbackChain(handlers, List.of(annotation.applyOn()), List.of(annotation.skipOn()));
    }

    private static FallbackHandler resolve(Method guarded, Class<?> targetClass, String name, String subject) {
        List<Method> named = Arrays
            .stream(ReflectionUtils.getUniqueDeclaredMethods(targetClass, ReflectionUtils.USER_DECLARED_METHODS))
            .filter((candidate) -> candidate.getName().equals(name))
            .toList();
        ReturnKind kind = ReturnKind.of(guarded);
        Class<?> expectedType = ReturnKind.isSuspending(guarded)
                ? ResolvableType.forMethodReturnType(guarded, targetClass).resolve(Object.class)
                : guarded.getReturnType();
        String expected = describe(expectedType, name, valueParameters(guarded));
        if (named.isEmpty()) {
            throw new InvalidResiliencePolicyException(subject, "@Fallback(\"" + name + "\")", name,
                    "no method named '" + name + "' exists on " + targetClass.getName(),
                    "Declare " + expected + " on " + targetClass.getSimpleName() + ", or correct the name.");
        }
        Method withFailure = single(named, guarded, true, subject, name);
        Method plain = (withFailure != null) ? null : single(named, guarded, false, subject, name);
        Method chosen = (withFailure != null) ? withFailure : plain;
        if (chosen == null) {
            throw new InvalidResiliencePolicyException(subject, "@Fallback(\"" + name + "\")", describe(named.get(0)),
                    "its parameters do not fit the guarded method's",
                    "Declare " + expected + ", optionally with a trailing Throwable parameter.");
        }
        if (ReturnKind.isSuspending(chosen) && kind == ReturnKind.SUSPEND_FLOW) {
            throw new InvalidResiliencePolicyException(subject, "@Fallback(\"" + name + "\")", describe(chosen),
                    "it is a suspend function, while a fallback of a function returning Flow returns its elements "
                            + "without suspending",
                    "Declare " + expected + " without suspend (a flow { } builder may suspend as it emits).");
        }
        if (ReturnKind.isSuspending(chosen) && kind != ReturnKind.SUSPEND) {
            throw new InvalidResiliencePolicyException(subject, "@Fallback(\"" + name + "\")", describe(chosen),
                    "it is a suspend function, which only a suspend function's call can await",
                    "Declare " + expected + " without suspend, or make the guarded method a suspend function.");
        }
        if (kind.isMono()) {
            requireMonoValue(guarded, kind, targetClass, chosen, name, subject);
        }
        boolean elements = kind.isFlux() && fluxElements(guarded, kind, targetClass, chosen, name, subject);
        if (!kind.isMono() && !kind.isFlux() && !returnFits(guarded, chosen, targetClass)) {
            throw new InvalidResiliencePolicyException(subject, "@Fallback(\"" + name + "\")", describe(chosen),
                    "it returns " + chosen.getGenericReturnType().getTypeName() + ", which is not assignable to "
                            + guarded.getGenericReturnType().getTypeName(),
                    "Make '" + name + "' return " + guarded.getReturnType().getSimpleName() + " or a subtype of it.");
        }
        if ((kind == ReturnKind.VALUE || kind == ReturnKind.SUSPEND) && mayReturnNullForKotlinValue(guarded, chosen)) {
            throw new InvalidResiliencePolicyException(subject, "@Fallback(\"" + name + "\")", describe(chosen),
                    "it may return null (its Kotlin return type is nullable), and the value of the function is not: "
                            + "a null would reach the caller as a value that its type says is never null",
                    "Make '" + name + "' return a value that is not nullable, or make the function's return type "
                            + "nullable.");
        }
        ReflectionUtils.makeAccessible(chosen);
        Class<?> failureType = (chosen == withFailure) ? chosen.getParameterTypes()[valueParameters(guarded).length]
                : null;
        return new MethodFallbackHandler(chosen, failureType, kind, elements, ReturnKind.emitsExecutionResult(guarded));
    }

    private static @Nullable Method single(List<Method> candidates, Method guarded, boolean withFailure, String subject,
            String name) {
        List<Method> fitting = candidates.stream()
            .filter((candidate) -> parametersFit(guarded, candidate, withFailure))
            .toList();
        if (fitting.size() > 1) {
            throw new InvalidResiliencePolicyException(subject, "@Fallback(\"" + name + "\")",
                    fitting.stream().map(FallbackMethods::describe).collect(Collectors.joining(", ")),
                    "more than one method named '" + name + "' fits", "Keep one overload of '" + name + "' that fits.");
        }
        return fitting.isEmpty() ? null : fitting.get(0);
    }

    private static boolean parametersFit(Method guarded, Method candidate, boolean withFailure) {
        Class<?>[] expected = valueParameters(guarded);
        Class<?>[] actual = valueParameters(candidate);
        if (actual.length != expected.length + (withFailure ? 1 : 0)) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if (!ClassUtils.isAssignable(actual[i], expected[i])) {
                return false;
            }
        }
        return !withFailure || Throwable.class.isAssignableFrom(actual[expected.length]);
    }

    /**
     * Whether a fallback's return type is assignable to the guarded method's, generics
     * included ({@code CompletableFuture<Integer>} does not fit
     * {@code CompletableFuture<String>}); a raw type or a type variable the bean's class
     * does not resolve is let through.
     */
    private static boolean returnFits(Method guarded, Method candidate, Class<?> targetClass) {
        Class<?> expected = guarded.getReturnType();
        return expected == void.class || (ClassUtils.isAssignable(expected, candidate.getReturnType())
                && valueFits(ResolvableType.forMethodReturnType(guarded, targetClass),
                        ResolvableType.forMethodReturnType(candidate, targetClass)));
    }

    /**
     * Fails unless a fallback of a method returning {@code Mono}, or of a {@code suspend}
     * function, returns a {@code Mono} of the value type or a plain value of it (the
     * value of a {@code suspend} fallback), generics included; a raw {@code Mono} or a
     * type variable the bean's class does not resolve is let through, and so is any
     * fallback of a function whose value is Kotlin's {@code Unit}.
     */
    private static void requireMonoValue(Method guarded, ReturnKind kind, Class<?> targetClass, Method candidate,
            String name, String subject) {
        ResolvableType guardedType = ResolvableType.forMethodReturnType(guarded, targetClass);
        ResolvableType value = (kind == ReturnKind.SUSPEND) ? guardedType : guardedType.getGeneric(0);
        if (UNIT.equals(value.resolve(Object.class).getName())) {
            return;
        }
        ResolvableType returned = ResolvableType.forMethodReturnType(candidate, targetClass);
        Class<?> returnedClass = returned.resolve(Object.class);
        boolean mono = OptionalTypes.isAssignable(ReturnKind.MONO_TYPE, returnedClass);
        if (mono ? valueFits(value, returned.as(monoType(returnedClass)).getGeneric(0)) : valueFits(value, returned)) {
            return;
        }
        String valueType = value.resolve(Object.class).getSimpleName();
        String reason = mono
                ? "it returns " + returned + ", whose value is not assignable to " + value + ", the value of "
                        + guardedType
                : "it returns " + returned + ", which is neither a Mono nor assignable to " + value + ", the value of "
                        + guardedType;
        throw new InvalidResiliencePolicyException(subject, "@Fallback(\"" + name + "\")", describe(candidate), reason,
                "Make '" + name + "' return Mono<" + valueType + "> or " + valueType + ".");
    }

    /**
     * Tells whether a fallback's Kotlin return type is nullable while the value of the
     * Kotlin function it answers for is not ({@code void} and {@code Unit} aside), which
     * the Kotlin compiler, trusting the function's signature, never checks at the call.
     */
    private static boolean mayReturnNullForKotlinValue(Method guarded, Method fallback) {
        if (!KotlinDetector.isKotlinType(guarded.getDeclaringClass()) || !KotlinDetector.isKotlinReflectPresent()) {
            return false;
        }
        MethodParameter value = new MethodParameter(guarded, -1);
        Class<?> type = value.getParameterType();
        return type != void.class && !UNIT.equals(type.getName()) && !value.isOptional()
                && new MethodParameter(fallback, -1).isOptional();
    }

    private static Class<?> monoType(Class<?> mono) {
        return ClassUtils.resolveClassName(ReturnKind.MONO_TYPE, mono.getClassLoader());
    }

    /**
     * Returns a method's value parameters: those of a Kotlin {@code suspend} function
     * without the trailing {@code Continuation}.
     */
    private static Class<?>[] valueParameters(Method method) {
        Class<?>[] types = method.getParameterTypes();
        return ReturnKind.isSuspending(method) ? Arrays.copyOf(types, types.length - 1) : types;
    }

    /**
     * Tells how a fallback of a method returning {@code Flux} or {@code Flow} gives its
     * elements, and fails unless it returns a {@code Flux} (or, for a {@code Flow}, a
     * {@code Flow}) of the element type, one element, or an {@link Iterable} of elements,
     * generics included; a raw type or a type variable the bean's class does not resolve
     * is let through. A type that fits as one element is one element, even when it is an
     * {@code Iterable}.
     * @return {@code true} when the fallback returns an {@code Iterable} of elements
     */
    private static boolean fluxElements(Method guarded, ReturnKind kind, Class<?> targetClass, Method candidate,
            String name, String subject) {
        ResolvableType guardedType = ResolvableType.forMethodReturnType(guarded, targetClass);
        ResolvableType element = guardedType.getGeneric(0);
        ResolvableType returned = ResolvableType.forMethodReturnType(candidate, targetClass);
        boolean flow = kind != ReturnKind.FLUX;
        Class<?> stream = streamType(flow, candidate.getReturnType());
        String reason;
        if (stream != null) {
            if (valueFits(element, returned.as(stream).getGeneric(0))) {
                return false;
            }
            reason = "it returns " + returned + ", whose elements are not assignable to " + element
                    + ", the element type of " + guardedType;
        }
        else {
            if (valueFits(element, returned)) {
                return false;
            }
            ResolvableType iterable = returned.as(Iterable.class);
            if (iterable != ResolvableType.NONE && valueFits(element, iterable.getGeneric(0))) {
                return true;
            }
            reason = "it returns " + returned + ", which is neither a " + (flow ? "Flow nor a Flux" : "Flux")
                    + ", nor assignable to " + element + ", the element type of " + guardedType
                    + ", nor an Iterable of it";
        }
        String elementType = element.resolve(Object.class).getSimpleName();
        throw new InvalidResiliencePolicyException(subject, "@Fallback(\"" + name + "\")", describe(candidate), reason,
                "Make '" + name + "' return " + (flow ? "Flow<" + elementType + ">, " : "") + "Flux<" + elementType
                        + ">, " + elementType + " or List<" + elementType + ">.");
    }

    /**
     * Returns the stream type a fallback's return type is: a {@code Flux}, or for a
     * method returning {@code Flow} also a {@code Flow}.
     * @return the stream type, or {@code null} when the fallback returns elements
     */
    private static @Nullable Class<?> streamType(boolean flow, Class<?> returned) {
        for (String name : flow ? List.of(ReturnKind.FLOW_TYPE, ReturnKind.FLUX_TYPE) : List.of(ReturnKind.FLUX_TYPE)) {
            if (OptionalTypes.isAssignable(name, returned)) {
                return ClassUtils.resolveClassName(name, returned.getClassLoader());
            }
        }
        return null;
    }

    private static boolean valueFits(ResolvableType expected, ResolvableType actual) {
        Class<?> actualClass = actual.resolve();
        if (actualClass == null) {
            return true;
        }
        if (!ClassUtils.isAssignable(expected.resolve(Object.class), actualClass)) {
            return false;
        }
        return !expected.hasGenerics() || actualClass.isPrimitive()
                || actual.as(expected.resolve(Object.class)).hasUnresolvableGenerics()
                || expected.isAssignableFrom(actual);
    }

    /**
     * Describes a method as its source declares it: a Kotlin {@code suspend} function by
     * its value type and value parameters, not its compiled form's {@code Object} and
     * {@code Continuation}.
     */
    static String describe(Method method) {
        if (ReturnKind.isSuspending(method)) {
            return "suspend " + describe(ResolvableType.forMethodReturnType(method).resolve(Object.class),
                    method.getName(), valueParameters(method));
        }
        return describe(method.getReturnType(), method.getName(), method.getParameterTypes());
    }

    private static String describe(Class<?> returnType, String name, Class<?>[] parameterTypes) {
        return returnType.getSimpleName() + " " + name + "("
                + Arrays.stream(parameterTypes).map(Class::getSimpleName).collect(Collectors.joining(", ")) + ")";
    }

}
