package dev.resilience.aop;

import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;

/**
 * The one advisor of the resilience annotations: applies the
 * {@link ResilienceInterceptor} to every annotated method, at an order that keeps it
 * outside {@code @Transactional} by default ({@code Ordered.LOWEST_PRECEDENCE - 1}), so
 * that every attempt gets its own transaction.
 */
public final class ResilienceAdvisor extends AbstractPointcutAdvisor {

    private final transient Pointcut pointcut = new ResiliencePointcut();

    private final transient ResilienceInterceptor interceptor;

    /**
     * Creates the advisor.
     * @param interceptor the interceptor to apply
     * @param order the advisor's order ({@code resilience.interceptor-order})
     */
    public ResilienceAdvisor(ResilienceInterceptor interceptor, int order) {
        this.interceptor = interceptor;
        setOrder(order);
    }

    @Override
    public Pointcut getPointcut() {
        return this.pointcut;
    }

    @Override
    public Advice getAdvice() {
        return this.interceptor;
    }

}
