package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.resilience.annotation.Idempotent;
import dev.resilience.registry.InvalidResiliencePolicyException;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import org.jspecify.annotations.Nullable;

import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * The idempotency key and fingerprint of one method, from the SpEL expressions of its
 * {@link Idempotent} annotation over the method's parameters ({@code #name}, {@code #p0},
 * {@code #a0}). Parsed once at startup, where an expression that does not parse or names
 * an unknown parameter fails the start. The fingerprint is a keyed digest
 * ({@link IdempotencyFingerprints}) of the fingerprint expression's value, or, when no
 * fingerprint expression is given, of the full values of the arguments that the method's
 * {@link FingerprintParameters} cover. An expression that fails at run time, whether SpEL
 * cannot evaluate it or a method it calls throws, refuses the call with an
 * {@link IdempotencyKeyException} that names the method and the expression, never the
 * arguments: a fingerprint is never a constant.
 */
final class IdempotencyKeyExpressions {

    private static final SpelExpressionParser parser = new SpelExpressionParser(
            new SpelParserConfiguration(SpelCompilerMode.MIXED, IdempotencyKeyExpressions.class.getClassLoader()));

    private static final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

    private final Method method;

    private final String description;

    private final Expression key;

    private final @Nullable Expression fingerprint;

    private final FingerprintParameters fingerprintParameters;

    private final IdempotencyFingerprints fingerprints;

    private final boolean suspending;

    private IdempotencyKeyExpressions(Method method, String description, Expression key,
            @Nullable Expression fingerprint, IdempotencyFingerprints fingerprints) {
        this.method = method;
        this.description = description;
        this.key = key;
        this.fingerprint = fingerprint;
        this.fingerprintParameters = FingerprintParameters.of(method);
        this.fingerprints = fingerprints;
        this.suspending = ReturnKind.isSuspending(method);
    }

    static IdempotencyKeyExpressions compile(Method method, String description, Idempotent annotation,
            IdempotencyFingerprints fingerprints, String subject) {
        Set<String> variables = variables(method);
        Expression key = parse(annotation.key(), "@Idempotent(key)", variables, subject);
        Expression fingerprint = annotation.fingerprint().isBlank() ? null
                : parse(annotation.fingerprint(), "@Idempotent(fingerprint)", variables, subject);
        return new IdempotencyKeyExpressions(method, description, key, fingerprint, fingerprints);
    }

    /**
     * Evaluates the key expression.
     * @param arguments the call's arguments
     * @return the key, {@code null} when the expression yields none
     * @throws IdempotencyKeyException when the expression fails
     */
    @Nullable Object key(@Nullable Object[] arguments) {
        try {
            return this.key.getValue(context(arguments));
        }
        catch (RuntimeException ex) {
            throw failed("its key expression threw " + ex.getClass().getSimpleName());
        }
    }

    /**
     * Works out the fingerprint of a call.
     * @param arguments the call's arguments
     * @return the hex HMAC-SHA256 of the fingerprint value or of the arguments
     * @throws IdempotencyKeyException when the fingerprint expression fails, or an
     * argument cannot be rendered
     */
    String fingerprint(@Nullable Object[] arguments) {
        IdempotencyFingerprints.Digest digest = this.fingerprints.start();
        if (this.fingerprint == null) {
            for (int i = 0; i < arguments.length; i++) {
                if (this.fingerprintParameters.covers(i)) {
                    add(digest, this.fingerprintParameters.contribution(i, arguments[i]));
                }
            }
        }
        else {
            Object value;
            try {
                value = this.fingerprint.getValue(context(arguments));
            }
            catch (RuntimeException ex) {
                throw failed("its fingerprint expression threw " + ex.getClass().getSimpleName());
            }
            add(digest, value);
        }
        return digest.finish();
    }

    private void add(IdempotencyFingerprints.Digest digest, @Nullable Object value) {
        try {
            digest.add(value);
        }
        catch (RuntimeException ex) {
            throw failed("its fingerprint could not be rendered (" + ex.getClass().getSimpleName() + ")");
        }
    }

    private IdempotencyKeyException failed(String reason) {
        return new IdempotencyKeyException(
                "Idempotency key of " + this.description + " cannot be worked out: " + reason);
    }

    /**
     * Returns the evaluation context of a call's arguments: those of a Kotlin
     * {@code suspend} function without its {@code Continuation}, which is neither
     * {@code #root}'s last element nor a variable's value.
     */
    private MethodBasedEvaluationContext context(@Nullable Object[] arguments) {
        if (!this.suspending) {
            return new MethodBasedEvaluationContext(arguments, this.method, arguments, parameterNames);
        }
        @Nullable Object[] values = Arrays.copyOf(arguments, arguments.length - 1);
        return new MethodBasedEvaluationContext(values, this.method, Arrays.copyOf(values, arguments.length),
                parameterNames);
    }

    private static Expression parse(String text, String setting, Set<String> variables, String subject) {
        Expression expression;
        try {
            expression = parser.parseExpression(text);
        }
        catch (ParseException ex) {
            throw new InvalidResiliencePolicyException(subject, setting, text,
                    "it is not a valid SpEL expression: " + ex.getMessage(),
                    "Write a SpEL expression over the method's parameters, such as " + example(variables) + ".");
        }
        List<String> unknown = new ArrayList<>(SpelVariables.of((SpelExpression) expression));
        unknown.removeAll(variables);
        if (!unknown.isEmpty()) {
            throw new InvalidResiliencePolicyException(subject, setting, text,
                    "it refers to #" + String.join(", #", unknown) + ", which is not a parameter of the method",
                    "Refer to a parameter by name or position: "
                            + String.join(", ", variables.stream().map((name) -> "#" + name).toList()) + ".");
        }
        return expression;
    }

    /**
     * Returns the variables an expression over a method's parameters may refer to: their
     * names and positions, those of a Kotlin {@code suspend} function's value parameters
     * only, as the evaluation context exposes no {@code Continuation}.
     * @param method the method
     * @return the variable names, without {@code #}
     */
    static Set<String> variables(Method method) {
        Set<String> variables = new LinkedHashSet<>();
        String[] names = parameterNames.getParameterNames(method);
        if (names != null) {
            variables.addAll(List.of(names));
        }
        int parameters = method.getParameterCount() - (ReturnKind.isSuspending(method) ? 1 : 0);
        for (int i = 0; i < parameters; i++) {
            variables.add("p" + i);
            variables.add("a" + i);
        }
        return variables;
    }

    private static String example(Set<String> variables) {
        return variables.isEmpty() ? "\"'fixed-key'\"" : "\"#" + variables.iterator().next() + "\"";
    }

}
