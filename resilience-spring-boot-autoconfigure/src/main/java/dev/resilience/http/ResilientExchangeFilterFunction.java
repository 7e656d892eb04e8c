package dev.resilience.http;

import java.util.List;

import dev.resilience.core.CallContext;
import dev.resilience.core.ResiliencePipeline;
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
 * after this one run on every attempt and the request's body is written again.</li>
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
 * <li>Disposing the subscription cancels the call: the running exchange is cancelled, a
 * backoff wait is cut short and no further attempt starts.</li>
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
            ResiliencePipeline pipeline = this.pipelines.pipelineOf(request.method(), request.url(), request.headers());
            ExchangeAttempts attempts = new ExchangeAttempts(request, next, context, this.pipelines);
            CallContext call = CallContext.of(attempts.describe(), List.of());
            return Mono.fromFuture(() -> pipeline.<ClientResponse>executeAsync(call, attempts::next), false)
                .flatMap(attempts::outcome)
                .doFinally((signal) -> attempts.end());
        });
    }

}
