package dev.resilience.aop;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import dev.resilience.core.CallContext;
import org.jspecify.annotations.Nullable;

/**
 * The {@code failOnResult} predicate of one breaker, which every method that names the
 * breaker shares: each method's {@link ResultExpression} (one text for all of them,
 * {@link InstanceNameConflicts} sees to that), chosen by the judged call's method
 * ({@link CallContext#method()}), so the expression reads that method's parameters. A
 * value of a call that no annotated method made (the HTTP client, {@code
 * ResilienceTemplate}) is not judged: it is no failure. Thread-safe.
 */
final class BreakerResultExpressions implements Predicate<@Nullable Object> {

    private final Map<String, ResultExpression> byMethod = new ConcurrentHashMap<>();

    /**
     * Adds the expression of a method; the first of a method's name stays.
     * @param method the method's description, as its calls' contexts name it
     * @param expression the method's expression
     * @return this predicate
     */
    BreakerResultExpressions add(String method, ResultExpression expression) {
        this.byMethod.putIfAbsent(method, expression);
        return this;
    }

    @Override
    public boolean test(@Nullable Object result) {
        ResultExpression expression = this.byMethod.get(CallContext.judged().method());
        return expression != null && expression.test(result);
    }

}
