package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.registry.InvalidResiliencePolicyException;
import dev.resilience.registry.ResilienceRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;

/**
 * The result predicates of the annotated methods: each method's {@code retryOnResult} and
 * {@code failOnResult} expression, parsed at startup with the application's beans to
 * refer to, the {@code failOnResult} ones gathered per breaker
 * ({@link BreakerResultExpressions}); and the breakers the expressions ask
 * {@code @circuitBreakers} about, checked once every breaker of the startup exists, then
 * as each later method is compiled. Thread-safe.
 */
final class ResultPredicates {

    private final Map<String, BreakerResultExpressions> byBreaker = new ConcurrentHashMap<>();

    private final Queue<ResultExpressionReferences> unchecked = new ConcurrentLinkedQueue<>();

    private volatile @Nullable BeanFactory beans;

    private volatile boolean started;

    /**
     * Sets the beans that expressions compiled from now on may refer to.
     * @param beans the application's bean factory
     */
    void referTo(BeanFactory beans) {
        this.beans = beans;
    }

    /**
     * Derives a method's own retry policy from its instance's when the annotation has a
     * {@code retryOnResult} expression: the instance's settings and budget, and the
     * method's predicate, which reads the method's parameters.
     * @param retry the instance's policy
     * @param retryable the method's annotation, or {@code null}
     * @param method the method
     * @param subject the bean and method, for a failure analysis
     * @return the method's policy
     * @throws InvalidResiliencePolicyException when the expression does not fit
     */
    RetryPolicy withRetryOnResult(RetryPolicy retry, @Nullable Retryable retryable, Method method, String subject) {
        if (retryable == null || retryable.retryOnResult().isBlank()) {
            return retry;
        }
        return retry.toBuilder()
            .retryOnResult(compile(method, retryable.retryOnResult(), "@Retryable(retryOnResult)", subject))
            .build();
    }

    /**
     * Parses the {@code failOnResult} expression of a method and adds it to its breaker's
     * shared predicate.
     * @param breakerName the breaker's name
     * @param circuitGuarded the method's annotation, or {@code null}
     * @param method the method
     * @param subject the bean and method, for a failure analysis
     * @return the breaker's predicate, or {@code null} when the annotation has none
     * @throws InvalidResiliencePolicyException when the expression does not fit
     */
    @Nullable Predicate<@Nullable Object> failOnResult(String breakerName, @Nullable CircuitGuarded circuitGuarded, Method method,
            String subject) {
        if (circuitGuarded == null || circuitGuarded.failOnResult().isBlank()) {
            return null;
        }
        ResultExpression expression = compile(method, circuitGuarded.failOnResult(), "@CircuitGuarded(failOnResult)",
                subject);
        return this.byBreaker.computeIfAbsent(breakerName, (name) -> new BreakerResultExpressions())
            .add(method, expression);
    }

    /**
     * Checks the breakers that the expressions compiled so far ask about, once every
     * breaker of the startup exists; the expressions of methods compiled later are
     * checked by {@link #compiled}.
     * @param registry the registry of the breakers
     * @throws InvalidResiliencePolicyException naming an expression that asks about a
     * breaker that does not exist
     */
    void started(ResilienceRegistry registry) {
        this.started = true;
        check(registry);
    }

    /**
     * Checks the breakers that a method compiled after the startup asks about, once its
     * own breaker exists.
     * @param registry the registry of the breakers
     * @throws InvalidResiliencePolicyException naming an expression that asks about a
     * breaker that does not exist
     */
    void compiled(ResilienceRegistry registry) {
        if (this.started) {
            check(registry);
        }
    }

    private void check(ResilienceRegistry registry) {
        ResultExpressionReferences references = this.unchecked.poll();
        while (references != null) {
            references.requireBreakers(registry);
            references = this.unchecked.poll();
        }
    }

    private ResultExpression compile(Method method, String text, String setting, String subject) {
        ResultExpression expression = ResultExpression.compile(method, text, setting, subject, this.beans);
        this.unchecked.add(expression.references());
        return expression;
    }

}
