package dev.resilience.http;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.resilience.aop.CallStarts;
import dev.resilience.core.ExecutionResult;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;

/**
 * Runs each exchange of a {@code WebClient} through the {@link HttpClientPipelines} of
 * its host, on the engine's asynchronous path: no thread waits for a response or for a
 * backoff, whose waits are timers of the engine's clock. The twin of
 * {@link ResilientClientHttpRequestInterceptor}, with the same rules of what is retried
 * and what is a failure.
 *
 * <ul>
 * <li>Each subscription to the returned {@code Mono} is one call. Each attempt subscribes
 * anew to the rest of the exchange, with the caller's Reactor context, so the filters
 * after this one run on every attempt. A request that may be retried sends on every
 * attempt the bytes its first whole write sent, kept in memory for the call, so that a
 * body readable only once (an {@code InputStream}, a hot {@code Flux}) is never resent
 * empty or cut.</li>
 * <li>Every response that is not a failure is emitted at once and counts as a success for
 * the breaker. When the attempts end on a failed response, the last response is emitted,
 * so that the WebClient's status handling applies ({@code WebClientResponseException}
 * from {@code retrieve()}). When they end on an I/O error, the exchange's
 * {@code WebClientRequestException} is signalled; when they end on a timeout, a
 * {@code WebClientRequestException} caused by an {@code IOException} whose cause is the
 * core's timeout exception. A breaker that rejects the call signals the core's
 * {@code CallNotPermittedException} without sending the request.</li>
 * <li>The body of every response an attempt received is released unless the response is
 * the one emitted: those of earlier failed attempts, and the late response of an attempt
 * that timed out or of a call that was cancelled.</li>
 * <li>The call starts on the subscriber's first request: a subscription cancelled before
 * it starts no call and sends nothing. Disposing the subscription later cancels the call:
 * the running exchange is cancelled, a backoff wait is cut short and no further attempt
 * starts.</li>
 * <li>Each subscription is one {@code resilience.calls} observation, from its start to
 * its end (a cancellation ends it with status {@code error}, as for a {@code Mono}
 * method): the {@code WebClient}'s own observation of the exchange, in the subscriber's
 * context, is its parent, and every attempt subscribes with the call's observation in its
 * context, so that the observations made by the filters after this one and by the
 * connector are its children.</li>
 * </ul>
 *
 * <p>
 * Thread-safe.
 */
public final class ResilientExchangeFilterFunction implements ExchangeFilterFunction {

    private final HttpClientPipelines pipelines;

    /**
     * Creates the filter.
     * @param pipelines the pipelines of the hosts, which other clients may share
     */
    public ResilientExchangeFilterFunction(HttpClientPipelines pipelines) {
        this.pipelines = pipelines;
    }

    /**
     * Returns the exchange of the request through the pipeline of its host.
     * @param request the request
     * @param next the rest of the exchange, subscribed once per attempt
     * @return the cold {@code Mono} of the response
     */
    @Override
    public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
        return Mono.deferContextual((context) -> {
            ClientRequest sent = HttpClientPipelines.isRetried(request.method(), request.headers())
                    ? ReplayedBody.of(request) : request;
            ExchangeAttempts attempts = new ExchangeAttempts(sent, next, this.pipelines);
            Supplier<CompletableFuture<ExecutionResult<ClientResponse>>> call = () -> this.pipelines
                .executeAsync(request.method(), request.url(), request.headers(), context, attempts::subscribedWith);
            return CallStarts.onFirstRequest(call).flatMap(attempts::outcome).doFinally((signal) -> attempts.end());
        });
    }

}
