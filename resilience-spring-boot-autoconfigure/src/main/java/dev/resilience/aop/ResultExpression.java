package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import dev.resilience.core.CallContext;
import dev.resilience.registry.InvalidResiliencePolicyException;
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
 * A result predicate of one method, from the SpEL expression of
 * {@code @Retryable(retryOnResult)} or {@code @CircuitGuarded(failOnResult)} over
 * {@code #result} and the method's parameters ({@code #name}, {@code #p0}, {@code #a0}),
 * as {@link IdempotencyKeyExpressions} reads key expressions. Parsed once at startup,
 * where an expression that does not parse or names an unknown variable fails the start.
 * Evaluated per attempt, with the arguments of the call the engine is judging
 * ({@link CallContext#judged()}); an expression that throws or yields no boolean makes
 * the predicate throw, which the engine turns into a {@code ResultPredicateException}
 * that ends the call ERROR. Thread-safe.
 */
final class ResultExpression implements Predicate<@Nullable Object> {

    static final String RESULT = "result";

    private static final SpelExpressionParser parser = new SpelExpressionParser(
            new SpelParserConfiguration(SpelCompilerMode.MIXED, ResultExpression.class.getClassLoader()));

    private static final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

    private final Method method;

    private final String text;

    private final Expression expression;

    private ResultExpression(Method method, String text, Expression expression) {
        this.method = method;
        this.text = text;
        this.expression = expression;
    }

    /**
     * Parses a result expression of a method.
     * @param method the annotated method
     * @param text the expression
     * @param setting the attribute, such as {@code @Retryable(retryOnResult)}
     * @param subject the bean and method, for a failure analysis
     * @return the predicate
     * @throws InvalidResiliencePolicyException when the expression does not parse or
     * names a variable that is neither {@code #result} nor a parameter
     */
    static ResultExpression compile(Method method, String text, String setting, String subject) {
        Expression expression;
        try {
            expression = parser.parseExpression(text);
        }
        catch (ParseException ex) {
            throw new InvalidResiliencePolicyException(subject, setting, text,
                    "it is not a valid SpEL expression: " + ex.getMessage(),
                    "Write a boolean SpEL expression over #result and the method's parameters, such as "
                            + "\"#result == null\".");
        }
        Set<String> variables = IdempotencyKeyExpressions.variables(method);
        variables.add(RESULT);
        List<String> unknown = new ArrayList<>(SpelVariables.of((SpelExpression) expression));
        unknown.removeAll(variables);
        if (!unknown.isEmpty()) {
            throw new InvalidResiliencePolicyException(subject, setting, text,
                    "it refers to #" + String.join(", #", unknown)
                            + ", which is neither #result nor a parameter of the method",
                    "Refer to the value as #result and to a parameter by name or position: "
                            + String.join(", ", variables.stream().map((name) -> "#" + name).toList()) + ".");
        }
        return new ResultExpression(method, text, expression);
    }

    @Override
    public boolean test(@Nullable Object result) {
        List<@Nullable Object> arguments = CallContext.judged().arguments();
        MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(null, this.method, arguments.toArray(),
                parameterNames);
        context.setVariable(RESULT, result);
        Object verdict = this.expression.getValue(context);
        if (verdict instanceof Boolean judged) {
            return judged;
        }
        throw new IllegalStateException("Result expression \"" + this.text + "\" of " + this.method.getName()
                + " yielded " + ((verdict != null) ? verdict.getClass().getName() : "null") + ", not a boolean");
    }

}
