package dev.resilience.webflux;

import java.util.function.Supplier;

import dev.resilience.annotation.Idempotent;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import dev.resilience.web.IdempotencyKeyHeaders;
import dev.resilience.web.IdempotencyProblemAdvice;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerAdapter;
import org.springframework.web.reactive.HandlerResult;
import org.springframework.web.server.ServerWebExchange;

/**
 * Refuses a request to an {@link Idempotent @Idempotent} handler whose key is made of a
 * request header that is missing or blank, before WebFlux resolves the handler's
 * arguments, as {@code IdempotencyKeyHeaderInterceptor} does in Spring MVC: it signals an
 * {@link IdempotencyKeyException}, which {@link WebFluxProblemAdvice} answers with 400
 * {@value IdempotencyProblemAdvice#KEY_INVALID}. The headers are those
 * {@link IdempotencyKeyHeaders} names; WebFlux would otherwise refuse such a request with
 * a {@code MissingRequestValueException}, which is the application's to answer.
 *
 * <p>
 * WebFlux has no handler interceptor: this adapter, ordered first, takes the handler
 * methods whose key is made of headers, checks the request and hands it to the adapter of
 * annotated controllers, which does everything else (arguments, invocation, the exception
 * handlers). Every other handler goes straight to its own adapter. Thread-safe.
 */
public final class IdempotencyKeyHeaderAdapter implements HandlerAdapter, Ordered {

    private final IdempotencyKeyHeaders keyHeaders;

    private final Supplier<HandlerAdapter> handlerMethods;

    /**
     * Creates the adapter.
     * @param keyHeaders what the keys of handlers are made of
     * @param handlerMethods supplies WebFlux's adapter of annotated controllers
     * ({@code RequestMappingHandlerAdapter}), asked for on the first request
     */
    public IdempotencyKeyHeaderAdapter(IdempotencyKeyHeaders keyHeaders, Supplier<HandlerAdapter> handlerMethods) {
        this.keyHeaders = keyHeaders;
        this.handlerMethods = handlerMethods;
    }

    /**
     * Takes the handler methods whose idempotency key is made of request headers.
     * @param handler the handler chosen for a request
     * @return {@code true} for such a handler method
     */
    @Override
    public boolean supports(Object handler) {
        return handler instanceof HandlerMethod method && this.keyHeaders.hasKeyHeaders(method)
                && this.handlerMethods.get().supports(handler);
    }

    /**
     * Checks the headers that the handler's key is made of, then lets the adapter of
     * annotated controllers handle the request.
     * @param exchange the request's exchange
     * @param handler a handler method this adapter supports
     * @return the handler's result, or an {@link IdempotencyKeyException} when a header
     * the key is made of is missing or blank
     */
    @Override
    public Mono<HandlerResult> handle(ServerWebExchange exchange, Object handler) {
        try {
            this.keyHeaders.check((HandlerMethod) handler, exchange.getRequest().getHeaders()::getFirst);
        }
        catch (IdempotencyKeyException ex) {
            return Mono.error(ex);
        }
        return this.handlerMethods.get().handle(exchange, handler);
    }

    /**
     * Returns the highest precedence: WebFlux asks the adapters in order.
     * @return {@link Ordered#HIGHEST_PRECEDENCE}
     */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

}
