package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import dev.resilience.core.CallContext;
import org.jspecify.annotations.Nullable;

/**
 * The {@code failOnResult} predicate of one breaker, which every method that names the
 * breaker shares: each method's {@link ResultExpression} (one text for all of them,
 * {@link InstanceNameConflicts} sees to that), chosen by the method the judged call was
 * made to ({@link MethodArguments}), so the expression reads that method's parameters, an
 * overload's own included. A value of a call that no annotated method made (the HTTP
 * client, {@code ResilienceTemplate}) is not judged: it is no failure. Thread-safe.
 */
final class BreakerResultExpressions implements Predicate<@Nullable Object> {

    private final Map<Method, ResultExpression> byMethod = new ConcurrentHashMap<>();

    /**
     * Adds the expression of a method; the first of a method stays.
     * @param method the annotated method
     * @param expression the method's expression
     * @return this predicate
     */
    BreakerResultExpressions add(Method method, ResultExpression expression) {
        this.byMethod.putIfAbsent(method, expression);
        return this;
    }

    @Override
    public boolean test(@Nullable Object result) {
        Method method = MethodArguments.methodOf(CallContext.judged().arguments());
        ResultExpression expression = (method != null) ? this.byMethod.get(method) : null;
        return expression != null && expression.test(result);
    }

}
