package dev.resilience.http;

import java.io.IOException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.resilience.core.ExecutionResult;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import org.springframework.web.reactive.function.client.WebClientRequestException;

/**
 * The attempts of one {@code WebClient} request: each attempt is a fresh subscription to
 * the rest of the exchange, with the caller's Reactor context and the call's observation
 * in it, as a stage whose cancellation cancels the subscription. It owns every response
 * an attempt received until it is returned or its body is released: the response of a
 * failed attempt stays open until the next attempt starts or the call ends, and a
 * response that arrives for an attempt the pipeline gave up on (timed out or cancelled),
 * or after the call ended, is released at once. Thread-safe: attempts follow one another,
 * but a late response may arrive on another thread while the next attempt runs.
 */
final class ExchangeAttempts {

    private final ClientRequest request;

    private final ExchangeFunction exchange;

    private final HttpClientPipelines pipelines;

    private final Set<Received> open = ConcurrentHashMap.newKeySet();

    private volatile boolean ended;

    ExchangeAttempts(ClientRequest request, ExchangeFunction exchange, HttpClientPipelines pipelines) {
        this.request = request;
        this.exchange = exchange;
        this.pipelines = pipelines;
    }

    /**
     * Returns what starts each attempt of the call.
     * @param context the Reactor context every attempt subscribes with
     * @return what starts one attempt ({@link #next})
     */
    Supplier<CompletableFuture<ClientResponse>> subscribedWith(Object context) {
        Context attempts = Context.of((ContextView) context);
        return () -> next(attempts);
    }

    /**
     * Starts an attempt, after releasing the responses of the earlier ones.
     * @param context the Reactor context the attempt subscribes with
     * @return the stage of the attempt's response, failed with a
     * {@link FailedResponseException} for a 5xx or 429 response; cancelling it cancels
     * the exchange
     */
    private CompletableFuture<ClientResponse> next(Context context) {
        releaseAllBut(null);
        CompletableFuture<ClientResponse> stage = new CompletableFuture<>();
        Attempt attempt = new Attempt(stage, context);
        this.exchange.exchange(this.request).subscribe(attempt);
        stage.whenComplete((response, error) -> {
            if (stage.isCancelled()) {
                attempt.dispose();
            }
        });
        return stage;
    }

    /**
     * Ends the call on the pipeline's result: keeps the response to return and releases
     * every other.
     * @param result the result of the call
     * @return the response that is not a failure, or the failed response the call ended
     * on, or the call's error: a timeout as a {@link WebClientRequestException} caused by
     * an {@link IOException} whose cause is the core's timeout exception
     */
    Mono<ClientResponse> outcome(ExecutionResult<ClientResponse> result) {
        this.ended = true;
        @Nullable ClientResponse value = result.value();
        Throwable error = result.isSuccess() ? null : Objects.requireNonNull(result.error());
        Received kept = null;
        for (Received received : this.open) {
            if ((error == null) ? received.response == value
                    : received.failure != null && HttpClientPipelines.endedOn(error, received.failure)) {
                kept = received;
            }
        }
        releaseAllBut(kept);
        if (kept != null && this.open.remove(kept)) {
            return Mono.just(kept.response);
        }
        if (error == null) {
            return Mono.justOrEmpty(value);
        }
        IOException timeout = HttpClientPipelines.timedOut(describe(), error);
        if (timeout != null) {
            return Mono.error(new WebClientRequestException(timeout, this.request.method(), this.request.url(),
                    this.request.headers()));
        }
        return Mono.error(error);
    }

    /**
     * Ends the call however it ended, cancelled included: releases every response still
     * open, and any that arrives later.
     */
    void end() {
        this.ended = true;
        releaseAllBut(null);
    }

    private String describe() {
        return HttpClientPipelines.describe(this.request.method(), this.request.url());
    }

    private void arrived(ClientResponse response, CompletableFuture<ClientResponse> stage) {
        FailedResponseException failure = this.pipelines.failureOf(response.statusCode(),
                response.headers().asHttpHeaders());
        Received received = new Received(response, failure);
        this.open.add(received);
        if (this.ended) {
            release(received);
            return;
        }
        boolean taken = (failure != null) ? stage.completeExceptionally(failure) : stage.complete(response);
        if (!taken) {
            release(received);
        }
    }

    private void releaseAllBut(@Nullable Received kept) {
        for (Received received : this.open) {
            if (received != kept) {
                release(received);
            }
        }
    }

    private void release(Received received) {
        if (this.open.remove(received)) {
            received.response.releaseBody().onErrorComplete().subscribe();
        }
    }

    /**
     * The subscription of one attempt, with the caller's context. A response that comes
     * after the attempt was cancelled still reaches {@link #arrived}, which releases it.
     */
    private final class Attempt extends BaseSubscriber<ClientResponse> {

        private final CompletableFuture<ClientResponse> stage;

        private final Context context;

        Attempt(CompletableFuture<ClientResponse> stage, Context context) {
            this.stage = stage;
            this.context = context;
        }

        @Override
        public Context currentContext() {
            return this.context;
        }

        @Override
        protected void hookOnNext(ClientResponse response) {
            arrived(response, this.stage);
        }

        @Override
        protected void hookOnError(Throwable error) {
            this.stage.completeExceptionally(error);
        }

        @Override
        protected void hookOnComplete() {
            this.stage.complete(null);
        }

    }

    /**
     * A response an attempt received, with the failure the pipeline saw for it; compared
     * by identity.
     */
    private static final class Received {

        private final ClientResponse response;

        private final @Nullable FailedResponseException failure;

        Received(ClientResponse response, @Nullable FailedResponseException failure) {
            this.response = response;
            this.failure = failure;
        }

    }

}
