package dev.resilience.web;

import dev.resilience.annotation.Idempotent;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.web.context.request.RequestScope;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Refuses a request to an {@link Idempotent @Idempotent} handler whose key is made of a
 * request header that is missing or blank, before Spring MVC resolves the handler's
 * arguments: it throws an {@link IdempotencyKeyException}, which
 * {@link IdempotencyProblemAdvice} answers with 400
 * {@value IdempotencyProblemAdvice#KEY_INVALID}.
 *
 * <p>
 * The headers checked are those {@link IdempotencyKeyHeaders} names: the handler's
 * required {@code @RequestHeader} parameters that the key expression refers to, found
 * where Spring MVC finds them, their names resolved as Spring MVC resolves them (
 * {@code #{...}} expressions in the request scope). Without this check Spring MVC would
 * refuse such a request with a {@code MissingRequestHeaderException}, which is the
 * application's to answer: every other missing header, of an idempotent handler or not,
 * is left to the application's own exception handlers and to Boot's problem details.
 * Thread-safe.
 */
public final class IdempotencyKeyHeaderInterceptor implements HandlerInterceptor {

    private final IdempotencyKeyHeaders keyHeaders;

    /**
     * Creates an interceptor that resolves header names through the given bean factory.
     * @param beanFactory the application's bean factory, whose embedded value resolvers
     * and expression resolver Spring MVC uses for {@code @RequestHeader} names
     */
    public IdempotencyKeyHeaderInterceptor(ConfigurableBeanFactory beanFactory) {
        this.keyHeaders = new IdempotencyKeyHeaders(beanFactory, new RequestScope());
    }

    /**
     * Checks the headers that the key of an idempotent handler is made of.
     * @param request the request
     * @param response the response, not written to
     * @param handler the handler chosen for the request
     * @return {@code true}: a request that passes the check goes on
     * @throws IdempotencyKeyException when a header the key is made of is missing or
     * blank
     */
    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod handlerMethod) {
            this.keyHeaders.check(handlerMethod, request::getHeader);
        }
        return true;
    }

}
