package dev.resilience.web;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationContext;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.method.annotation.ExceptionHandlerMethodResolver;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.mvc.method.annotation.ExceptionHandlerExceptionResolver;
import org.springframework.web.servlet.mvc.method.annotation.ServletInvocableHandlerMethod;

/**
 * Answers with the {@code @ExceptionHandler} methods of one of the starter's problem
 * advice ({@link IdempotencyProblemAdvice}, {@link CapacityProblemAdvice}) the exceptions
 * they declare, rendered as Spring MVC renders any exception handler's answer, but only
 * an exception that escapes a handler as it is. DESIGN section 16: the web support stays
 * in its lane. Spring MVC matches a controller advice's handlers against an exception's
 * causes too, so an advice ordered before the application's would answer an application
 * exception that merely carries a refusal as its cause, and the application's own handler
 * would never be reached; this resolver answers none of those. It runs before Spring
 * MVC's resolver of {@code @ExceptionHandler} methods, so that an application's catch-all
 * advice does not answer the starter's exceptions first; a controller's own
 * {@code @ExceptionHandler} for an exception still answers it. Thread-safe.
 */
public final class ProblemAdviceExceptionResolver extends ExceptionHandlerExceptionResolver {

    private final Object advice;

    private final ExceptionHandlerMethodResolver methods;

    private final Map<Class<?>, ExceptionHandlerMethodResolver> controllers = new ConcurrentHashMap<>();

    private ProblemAdviceExceptionResolver(Object advice) {
        this.advice = advice;
        this.methods = new ExceptionHandlerMethodResolver(ClassUtils.getUserClass(advice));
    }

    /**
     * Adds the resolver of each advice just before Spring MVC's resolver of
     * {@code @ExceptionHandler} methods, configured as that one is (message converters,
     * content negotiation, error response interceptors, the application context); adds
     * nothing to a list without one, whose application resolves exceptions its own way.
     * @param resolvers the resolvers of the application, as Spring MVC extends them
     * @param advice the advice whose exceptions to answer
     */
    public static void addBeforeExceptionHandlers(List<HandlerExceptionResolver> resolvers, List<?> advice) {
        for (int index = 0; index < resolvers.size(); index++) {
            if (resolvers.get(index) instanceof ExceptionHandlerExceptionResolver mvc
                    && !(mvc instanceof ProblemAdviceExceptionResolver)) {
                for (Object each : advice) {
                    ProblemAdviceExceptionResolver resolver = new ProblemAdviceExceptionResolver(each);
                    resolver.setMessageConverters(mvc.getMessageConverters());
                    resolver.setContentNegotiationManager(mvc.getContentNegotiationManager());
                    resolver.setErrorResponseInterceptors(mvc.getErrorResponseInterceptors());
                    ApplicationContext context = mvc.getApplicationContext();
                    if (context != null) {
                        resolver.setApplicationContext(context);
                    }
                    resolver.afterPropertiesSet();
                    resolvers.add(index, resolver);
                }
                return;
            }
        }
    }

    @Override
    protected @Nullable ServletInvocableHandlerMethod getExceptionHandlerMethod(@Nullable HandlerMethod handlerMethod,
            Exception exception, ServletWebRequest webRequest) {
        if (handlerMethod != null
                && this.controllers.computeIfAbsent(handlerMethod.getBeanType(), ExceptionHandlerMethodResolver::new)
                    .resolveMethod(exception) != null) {
            return null;
        }
        Method method = this.methods.resolveMethodByExceptionType(exception.getClass());
        return (method != null) ? new ServletInvocableHandlerMethod(this.advice, method) : null;
    }

    @Override
    protected boolean hasGlobalExceptionHandlers() {
        return true;
    }

}
