package dev.resilience.aop;

import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.util.function.SingletonSupplier;

/**
 * Runs each call of an annotated method through the pipeline compiled for that method at
 * startup. Only calls through the Spring proxy are seen: a call from inside the same bean
 * is not protected.
 */
public final class ResilienceInterceptor implements MethodInterceptor {

    private final Supplier<ResilientMethods> methods;

    /**
     * Creates the interceptor.
     * @param methods the compiled methods, looked up on the first call so that creating
     * the advisor early does not create them early
     */
    public ResilienceInterceptor(Supplier<ResilientMethods> methods) {
        this.methods = SingletonSupplier.of(methods);
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Class<?> targetClass = (target != null) ? TargetClasses.ofTarget(target)
                : invocation.getMethod().getDeclaringClass();
        ResilientMethod method = this.methods.get().get(invocation.getMethod(), targetClass);
        return (method != null) ? method.invoke(invocation) : invocation.proceed();
    }

}
