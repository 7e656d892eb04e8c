package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;

import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.ResolvableType;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.StandardTypeLocator;

/**
 * A result predicate of one method, from the SpEL expression of
 * {@code @Retryable(retryOnResult)} or {@code @CircuitGuarded(failOnResult)} over
 * {@code #result} and the method's parameters ({@code #name}, {@code #p0}, {@code #a0}),
 * as {@link IdempotencyKeyExpressions} reads key expressions, and the application's beans
 * ({@code @circuitBreakers.allows('name')}). Parsed once at startup, where the start
 * fails for what could only fail at run time: an expression that does not parse, a method
 * that returns nothing to judge, and references the evaluation context cannot resolve (an
 * unknown variable, a function, a class that cannot be loaded, a bean that does not
 * exist; see {@link ResultExpressionReferences}). Evaluated per attempt, with the
 * arguments of the call the engine is judging ({@link CallContext#judged()}); an
 * expression that throws or yields no boolean makes the predicate throw, which the engine
 * turns into a {@code ResultPredicateException} that ends the call ERROR. Thread-safe.
 */
final class ResultExpression implements Predicate<@Nullable Object> {

    static final String RESULT = "result";

    private static final SpelExpressionParser parser = new SpelExpressionParser(
            new SpelParserConfiguration(SpelCompilerMode.MIXED, ResultExpression.class.getClassLoader()));

    private static final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

    private final Method method;

    private final String text;

    private final Expression expression;

    private final @Nullable BeanResolver beans;

    private final StandardTypeLocator types;

    private final ResultExpressionReferences references;

    /**
     * Whether the method is a Kotlin {@code suspend} function, whose call carries no
     * {@code Continuation} among its arguments while the evaluation context drops the
     * last one of such a function.
     */
    private final boolean suspending;

    private ResultExpression(Method method, String text, Expression expression, @Nullable BeanFactory beans,
            ResultExpressionReferences references) {
        this.method = method;
        this.text = text;
        this.expression = expression;
        this.beans = (beans != null) ? new BeanFactoryResolver(beans) : null;
        this.types = typeLocator(method);
        this.references = references;
        this.suspending = ReturnKind.isSuspending(method);
    }

    /**
     * Parses a result expression of a method.
     * @param method the annotated method
     * @param text the expression
     * @param setting the attribute, such as {@code @Retryable(retryOnResult)}
     * @param subject the bean and method, for a failure analysis
     * @param beans the beans the expression may refer to, or {@code null} for none
     * @return the predicate
     * @throws InvalidResiliencePolicyException when the expression does not parse, the
     * method returns nothing, or the expression refers to what the evaluation context
     * cannot resolve
     */
    static ResultExpression compile(Method method, String text, String setting, String subject,
            @Nullable BeanFactory beans) {
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
        if (returnsNothing(method)) {
            throw new InvalidResiliencePolicyException(subject, setting, text,
                    "the method returns no value (" + ResolvableType.forMethodReturnType(method)
                            + "), so #result is always null and the expression judges every call alike",
                    "Remove " + setting + ", or return the value to judge from the method.");
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
        ResultExpressionReferences references = ResultExpressionReferences.check((SpelExpression) expression,
                typeLocator(method), beans, setting, subject);
        return new ResultExpression(method, text, expression, beans, references);
    }

    /**
     * Returns what the expression refers to beyond the call: the breakers it asks
     * {@code @circuitBreakers} about, checked once every breaker exists.
     * @return the references
     */
    ResultExpressionReferences references() {
        return this.references;
    }

    @Override
    public boolean test(@Nullable Object result) {
        @Nullable Object[] arguments = CallContext.judged().arguments().toArray();
        if (this.suspending) {
            arguments = Arrays.copyOf(arguments, arguments.length + 1);
        }
        MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(null, this.method, arguments,
                parameterNames);
        context.setTypeLocator(this.types);
        if (this.beans != null) {
            context.setBeanResolver(this.beans);
        }
        context.setVariable(RESULT, result);
        Object verdict = this.expression.getValue(context);
        if (verdict instanceof Boolean judged) {
            return judged;
        }
        throw new IllegalStateException("Result expression \"" + this.text + "\" of " + this.method.getName()
                + " yielded " + ((verdict != null) ? verdict.getClass().getName() : "null") + ", not a boolean");
    }

    private static StandardTypeLocator typeLocator(Method method) {
        return new StandardTypeLocator(method.getDeclaringClass().getClassLoader());
    }

    /**
     * Whether a method returns nothing its result predicate could judge: {@code void}, or
     * a {@code Void} value, a stage or publisher of one, an {@link ExecutionResult} of
     * one or a {@code Mono} of that, or a {@code suspend} function's {@code Unit}.
     */
    private static boolean returnsNothing(Method method) {
        ResolvableType returned = ResolvableType.forMethodReturnType(method);
        ReturnKind kind = ReturnKind.of(method);
        ResolvableType value = (kind == ReturnKind.COMPLETION_STAGE) ? returned.as(CompletionStage.class).getGeneric(0)
                : kind.valueType(returned);
        Class<?> type = value.resolve();
        return type == void.class || type == Void.class || (type != null && "kotlin.Unit".equals(type.getName()));
    }

}
