package dev.resilience.webflux;

import dev.resilience.annotation.Idempotent;
import dev.resilience.aop.CallContextCustomizer;
import dev.resilience.aop.InstanceNames;
import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.hedging.HedgeEvent;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.retry.RetryEvent;
import dev.resilience.web.IdempotentReplayHeaderListener;
import org.jspecify.annotations.Nullable;
import reactor.util.context.ContextView;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.filter.reactive.ServerWebExchangeContextFilter;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;

/**
 * Adds {@value IdempotentReplayHeaderListener#HEADER}{@code : true} to the response of a
 * WebFlux request whose {@link Idempotent @Idempotent} handler method was replayed from
 * the idempotency store, as {@link IdempotentReplayHeaderListener} does in Spring MVC.
 *
 * <p>
 * A WebFlux request is served on no thread of its own, so the request is found through
 * the call instead: the exchange that {@link ServerWebExchangeContextFilter} puts in the
 * Reactor context of the subscriber of a call of a method returning {@code Mono}, or, for
 * a handler returning a plain value, a {@link ServerWebExchange} argument of the call.
 * Such a call gets a listener of its own, after the call's listener, that marks the
 * response when the replayed policy is that of the exchange's handler method (by name:
 * {@code @Idempotent(name)}, or {@code SimpleClassName#method}); a replay of another
 * idempotent method called from the handler changes nothing. The header is set before the
 * replayed value is emitted, so before the response is written. Every other call is left
 * as it is. Stateless and thread-safe.
 */
public final class IdempotentReplayHeaderCalls implements CallContextCustomizer {

    /**
     * Gives a call made for a WebFlux request a listener that marks its replay.
     * @param context the call's context
     * @return the context with that listener, or as it is for a call without an exchange
     */
    @Override
    public CallContext customize(CallContext context) {
        ServerWebExchange exchange = exchangeOf(context);
        return (exchange != null) ? context.withListener(new ReplayMarker(context.listener(), exchange)) : context;
    }

    private static @Nullable ServerWebExchange exchangeOf(CallContext context) {
        if (CallContextCustomizer.subscriberContext(context) instanceof ContextView subscriber) {
            return subscriber.getOrDefault(ServerWebExchangeContextFilter.EXCHANGE_CONTEXT_ATTRIBUTE, null);
        }
        for (Object argument : context.arguments()) {
            if (argument instanceof ServerWebExchange exchange) {
                return exchange;
            }
        }
        return null;
    }

    private static @Nullable String handlerPolicyName(ServerWebExchange exchange) {
        Object handler = exchange.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE);
        if (!(handler instanceof HandlerMethod method)) {
            return null;
        }
        Idempotent idempotent = AnnotatedElementUtils.findMergedAnnotation(method.getMethod(), Idempotent.class);
        if (idempotent == null) {
            return null;
        }
        return InstanceNames.idempotencyName(method.getBeanType(), method.getMethod(), idempotent);
    }

    /**
     * Tells the call's own listener everything, and marks the exchange's response when
     * its handler's policy replays.
     */
    private static final class ReplayMarker implements ExecutionListener {

        private final ExecutionListener own;

        private final ServerWebExchange exchange;

        ReplayMarker(ExecutionListener own, ServerWebExchange exchange) {
            this.own = own;
            this.exchange = exchange;
        }

        @Override
        public void onIdempotency(String name, IdempotencyOutcome outcome) {
            this.own.onIdempotency(name, outcome);
            ServerHttpResponse response = this.exchange.getResponse();
            if (outcome == IdempotencyOutcome.REPLAYED && !response.isCommitted()
                    && name.equals(handlerPolicyName(this.exchange))) {
                response.getHeaders().set(IdempotentReplayHeaderListener.HEADER, "true");
            }
        }

        @Override
        public void onRetry(String name, RetryEvent event) {
            this.own.onRetry(name, event);
        }

        @Override
        public void onBudgetRefused(String name) {
            this.own.onBudgetRefused(name);
        }

        @Override
        public void onHedge(String name, HedgeEvent event) {
            this.own.onHedge(name, event);
        }

        @Override
        public void onFallback(String name, String fallbackName, boolean success) {
            this.own.onFallback(name, fallbackName, success);
        }

        @Override
        public void onDeadLetter(DeadLetter deadLetter) {
            this.own.onDeadLetter(deadLetter);
        }

        @Override
        public void onComplete(String name, ExecutionResult<?> result) {
            this.own.onComplete(name, result);
        }

    }

}
