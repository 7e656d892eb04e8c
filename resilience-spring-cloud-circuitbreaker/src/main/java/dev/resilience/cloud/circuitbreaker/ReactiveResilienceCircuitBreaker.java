package dev.resilience.cloud.circuitbreaker;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.resilience.aop.CallStarts;
import dev.resilience.aop.FluxCall;
import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import org.springframework.cloud.client.circuitbreaker.NoFallbackAvailableException;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreaker;

/**
 * A Spring Cloud {@link ReactiveCircuitBreaker} whose calls run on the engine's
 * asynchronous path through the pipeline of its instance name, without blocking a thread:
 * waits are timers of the engine's clock, which only fire, and the steps after them run
 * on the pipeline's executor.
 *
 * <ul>
 * <li>Each subscription to the returned publisher is one call; each attempt is a fresh
 * subscription to the given {@code Mono} or {@code Flux}, with the subscriber's Reactor
 * context.</li>
 * <li>A {@code Mono} attempt ends with its value (or empty); a {@code Flux} attempt with
 * its first signal, so it is retried only while it has emitted nothing, and the rest of
 * the winning attempt passes to the subscriber ({@link FluxCall}, shared with annotated
 * methods returning {@code Flux}; an element no subscriber will see goes to the discard
 * hook).</li>
 * <li>A call that ends without a value subscribes to the publisher its fallback gives for
 * the failure (the breaker's {@code CallNotPermittedException} while it is open, among
 * others); without a fallback it signals Spring Cloud's
 * {@link NoFallbackAvailableException} caused by the failure.</li>
 * <li>The call starts on the subscriber's first request: a subscription cancelled before
 * it subscribes to nothing. Disposing the subscription later cancels the call: no further
 * attempt or fallback starts, a backoff wait is cut short, the running attempt's
 * subscription is cancelled and a bulkhead permit is given back.</li>
 * </ul>
 *
 * <p>
 * Thread-safe; cheap to create.
 */
final class ReactiveResilienceCircuitBreaker implements ReactiveCircuitBreaker {

    private final CircuitBreakerPipelines pipelines;

    private final String name;

    private final PolicySelection selection;

    private final String description;

    ReactiveResilienceCircuitBreaker(CircuitBreakerPipelines pipelines, String id, String name,
            PolicySelection selection) {
        this.pipelines = pipelines;
        this.name = name;
        this.selection = selection;
        this.description = "Spring Cloud reactive circuit breaker " + id;
    }

    @Override
    public <T> Mono<T> run(Mono<T> toRun) {
        return mono(toRun, null);
    }

    @Override
    public <T> Mono<T> run(Mono<T> toRun, Function<Throwable, Mono<T>> fallback) {
        return mono(toRun, Objects.requireNonNull(fallback, "fallback"));
    }

    @Override
    public <T> Flux<T> run(Flux<T> toRun) {
        return flux(toRun, null);
    }

    @Override
    public <T> Flux<T> run(Flux<T> toRun, Function<Throwable, Flux<T>> fallback) {
        return flux(toRun, Objects.requireNonNull(fallback, "fallback"));
    }

    private <T> Mono<T> mono(Mono<T> toRun, @Nullable Function<Throwable, Mono<T>> fallback) {
        return Mono.deferContextual((context) -> {
            CallFallback callFallback = (fallback != null)
                    ? new CallFallback((error) -> fallback.apply(error).contextWrite(context).toFuture()) : null;
            Supplier<CompletableFuture<ExecutionResult<T>>> call = () -> start(context, callFallback,
                    (attemptContext) -> toRun.contextWrite(attemptContext).toFuture());
            return CallStarts.onFirstRequest(call)
                .flatMap((result) -> result.isSuccess() ? Mono.justOrEmpty(result.value())
                        : Mono.error(failure(result, callFallback)));
        });
    }

    @SuppressWarnings("unchecked")
    private <T> Flux<T> flux(Flux<T> toRun, @Nullable Function<Throwable, Flux<T>> fallback) {
        return Flux.deferContextual((context) -> {
            FluxCall subscription = new FluxCall(Context.of(context));
            CallFallback callFallback = (fallback != null)
                    ? new CallFallback((error) -> subscription.subscribe(fallback.apply(error))) : null;
            Supplier<CompletableFuture<ExecutionResult<@Nullable Object>>> call = () -> start(context, callFallback,
                    (attemptContext) -> subscription.subscribe(toRun.contextWrite(attemptContext)));
            return CallStarts.onFirstRequest(call).flatMapMany((result) -> {
                if (!result.isSuccess()) {
                    return Flux.error(failure(result, callFallback));
                }
                return (result.value() != null) ? (Flux<T>) subscription.rest() : Flux.<T>empty();
            }).doFinally((signal) -> subscription.cancel());
        });
    }

    private <T> CompletableFuture<ExecutionResult<T>> start(ContextView context, @Nullable CallFallback callFallback,
            Function<ContextView, CompletableFuture<T>> attempt) {
        ResiliencePipeline pipeline = this.pipelines.pipeline(this.name, this.selection, callFallback != null);
        CallContext call = (callFallback != null) ? callFallback.context(this.description)
                : CallContext.of(this.description, List.of());
        return this.pipelines.calls()
            .executeAsync(pipeline, call, context,
                    (attemptContext) -> () -> attempt.apply((ContextView) attemptContext));
    }

    private static Throwable failure(ExecutionResult<?> result, @Nullable CallFallback callFallback) {
        Throwable error = Objects.requireNonNull(result.error());
        if (callFallback == null) {
            return new NoFallbackAvailableException("No fallback available.", error);
        }
        Throwable fallbackFailure = callFallback.failure();
        return (fallbackFailure != null) ? fallbackFailure : error;
    }

}
