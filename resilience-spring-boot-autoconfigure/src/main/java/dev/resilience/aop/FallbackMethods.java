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

import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Resolves the method names of a {@link Fallback} into a {@link FallbackChain}, by the
 * rules of the annotation: a method of the same bean (any visibility) taking the guarded
 * method's parameters, optionally followed by one {@code Throwable} parameter, and
 * returning a type assignable to the guarded method's return type, or, for a method
 * returning {@code Mono}, to its value type. Where both forms exist, the one with the
 * {@code Throwable} parameter is used.
 */
final class FallbackMethods {

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
        String expected = describe(guarded.getReturnType(), name, guarded.getParameterTypes());
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
        ReturnKind kind = ReturnKind.of(guarded);
        if (kind == ReturnKind.MONO && !monoValueFits(guarded, targetClass, chosen)) {
            Class<?> valueType = monoValueType(guarded, targetClass);
            throw new InvalidResiliencePolicyException(subject, "@Fallback(\"" + name + "\")", describe(chosen),
                    "it returns " + chosen.getGenericReturnType().getTypeName() + ", which is neither a Mono nor "
                            + "assignable to " + valueType.getName() + ", the value of "
                            + guarded.getGenericReturnType().getTypeName(),
                    "Make '" + name + "' return Mono<" + valueType.getSimpleName() + "> or " + valueType.getSimpleName()
                            + ".");
        }
        if (kind != ReturnKind.MONO && !returnFits(guarded, chosen)) {
            throw new InvalidResiliencePolicyException(subject, "@Fallback(\"" + name + "\")", describe(chosen),
                    "it returns " + chosen.getGenericReturnType().getTypeName() + ", which is not assignable to "
                            + guarded.getGenericReturnType().getTypeName(),
                    "Make '" + name + "' return " + guarded.getReturnType().getSimpleName() + " or a subtype of it.");
        }
        ReflectionUtils.makeAccessible(chosen);
        Class<?> failureType = (chosen == withFailure) ? chosen.getParameterTypes()[guarded.getParameterCount()] : null;
        return new MethodFallbackHandler(chosen, failureType, kind);
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
        Class<?>[] expected = guarded.getParameterTypes();
        Class<?>[] actual = candidate.getParameterTypes();
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

    private static boolean returnFits(Method guarded, Method candidate) {
        Class<?> expected = guarded.getReturnType();
        return expected == void.class || ClassUtils.isAssignable(expected, candidate.getReturnType());
    }

    /**
     * Whether a fallback of a method returning {@code Mono} returns a {@code Mono} or a
     * plain value of the {@code Mono}'s value type.
     */
    private static boolean monoValueFits(Method guarded, Class<?> targetClass, Method candidate) {
        return ClassUtils.isAssignable(guarded.getReturnType(), candidate.getReturnType())
                || ClassUtils.isAssignable(monoValueType(guarded, targetClass), candidate.getReturnType());
    }

    private static Class<?> monoValueType(Method guarded, Class<?> targetClass) {
        return ResolvableType.forMethodReturnType(guarded, targetClass).getGeneric(0).resolve(Object.class);
    }

    private static String describe(Method method) {
        return describe(method.getReturnType(), method.getName(), method.getParameterTypes());
    }

    private static String describe(Class<?> returnType, String name, Class<?>[] parameterTypes) {
        return returnType.getSimpleName() + " " + name + "("
                + Arrays.stream(parameterTypes).map(Class::getSimpleName).collect(Collectors.joining(", ")) + ")";
    }

}
