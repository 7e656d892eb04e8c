package dev.resilience.http;

import java.io.IOException;
import java.net.URI;
import java.util.Set;

import dev.resilience.core.ExecutionResult;
import dev.resilience.core.time.TimeSource;
import dev.resilience.registry.ResiliencePolicies;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.support.HttpRequestWrapper;

/**
 * Runs each outgoing request of a {@code RestClient} through the
 * {@link HttpClientPipelines} of its host, which say which requests are retried, which
 * responses are failed attempts, how {@code Retry-After} is honoured and how many hosts
 * get a breaker of their own.
 *
 * <ul>
 * <li>Every response that is not a failure is returned to the caller at once and counts
 * as a success for the breaker: a 4xx says the request was wrong, not that the host is
 * unwell. A response asking for a longer {@code Retry-After} than is honoured is returned
 * at once, not retried: no retry is sent before the server allows it.</li>
 * <li>Every attempt sends the same request: its headers,
 * {@value HttpClientPipelines#IDEMPOTENCY_KEY_HEADER} included, and its body bytes.</li>
 * <li>When the attempts end on a failed response, the last response is returned, so that
 * the RestClient's status handling applies. When they end on an {@link IOException}, it
 * is thrown. When they end on a timeout (an attempt past its {@code attempt-timeout}, or
 * the instance's {@code max-duration} reached), an {@link IOException} is thrown with the
 * core's timeout exception as its cause, so that a RestClient reports it as a
 * {@code ResourceAccessException}. A breaker that rejects the call throws the core's
 * {@code CallNotPermittedException} without sending the request.</li>
 * <li>Every response an attempt received is closed, unless it is the one returned: the
 * responses of earlier failed attempts, and the late response of an attempt that timed
 * out, which the pipeline discards.</li>
 * <li>Each request is one {@code resilience.calls} observation, whatever its attempts, in
 * scope on the calling thread while they run, so that the observations they make are its
 * children; the {@code RestClient}'s own observation of the request is its parent.</li>
 * </ul>
 *
 * <p>
 * Thread-safe.
 */
public final class ResilientClientHttpRequestInterceptor
        implements ClientHttpRequestInterceptor, SmartInitializingSingleton {

    /** The header that makes a request of any method safe to retry. */
    public static final String IDEMPOTENCY_KEY_HEADER = HttpClientPipelines.IDEMPOTENCY_KEY_HEADER;

    /** The prefix of the names of the breakers per host. */
    public static final String CIRCUIT_BREAKER_PREFIX = HttpClientPipelines.CIRCUIT_BREAKER_PREFIX;

    /**
     * The name of the breaker shared by the hosts called after the first
     * {@code max-hosts}.
     */
    public static final String OTHER_HOSTS_CIRCUIT_BREAKER = HttpClientPipelines.OTHER_HOSTS_CIRCUIT_BREAKER;

    private final HttpClientPipelines pipelines;

    /**
     * Creates an interceptor with pipelines of its own, whose hosts no other client
     * shares, and whose requests are not observed.
     * @param policies the application's policies, which resolve the retry instance and
     * the breakers by name
     * @param timeSource the clock that {@code Retry-After} dates are read against
     * @param settings the {@code resilience.http-client} settings
     */
    public ResilientClientHttpRequestInterceptor(ResiliencePolicies policies, TimeSource timeSource,
            HttpClientSettings settings) {
        this(new HttpClientPipelines(policies, timeSource, settings));
    }

    /**
     * Creates an interceptor over pipelines that other clients may share, and with them
     * the bound on hosts.
     * @param pipelines the pipelines of the hosts
     */
    public ResilientClientHttpRequestInterceptor(HttpClientPipelines pipelines) {
        this.pipelines = pipelines;
    }

    /**
     * Resolves and registers the retry instance, so that it exists from the start.
     */
    @Override
    public void afterSingletonsInstantiated() {
        this.pipelines.afterSingletonsInstantiated();
    }

    /**
     * Sends the request through the pipeline of its host.
     * @param request the request
     * @param body its body, sent unchanged on every attempt
     * @param execution the rest of the interceptor chain, run once per attempt
     * @return the first response that is not a failure, or the last failed response
     * @throws IOException when the last attempt failed with one, or when the call ended
     * on a timeout (then its cause is the core's timeout exception)
     */
    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        Attempts attempts = new Attempts(request, body, execution);
        return attempts.outcome(
                this.pipelines.execute(request.getMethod(), request.getURI(), request.getHeaders(), attempts::next));
    }

    /**
     * Returns the name of the breaker of a URI's host while it is one of the hosts with a
     * breaker of their own; the others are guarded by
     * {@value #OTHER_HOSTS_CIRCUIT_BREAKER}.
     * @param uri the URI
     * @return {@code http-client:} followed by the host in lower case, and by {@code :}
     * and the port when it is given and is not the scheme's default
     */
    public static String circuitBreakerName(URI uri) {
        return HttpClientPipelines.circuitBreakerName(uri);
    }

    /**
     * Returns the hosts that have a breaker of their own, at most {@code max-hosts}.
     * @return the hosts, as in the breakers' names after the prefix
     */
    Set<String> hostsWithOwnBreaker() {
        return this.pipelines.hostsWithOwnBreaker();
    }

    /**
     * The attempts of one request, on the caller's thread: each sends the request with a
     * copy of its own of the headers it had when it reached this interceptor, which no
     * attempt changes, so that what the interceptors after this one add to an attempt's
     * headers is not sent again by the next. Keeps the response of the latest attempt
     * open until the next attempt or the end of the call, and closes it then unless it is
     * the one returned. The pipeline discards the value of an attempt that timed out, so
     * only this class can close that response.
     */
    private final class Attempts {

        private final HttpRequest request;

        private final byte[] body;

        private final ClientHttpRequestExecution execution;

        private @Nullable ClientHttpResponse latest;

        private @Nullable FailedResponseException lastFailure;

        Attempts(HttpRequest request, byte[] body, ClientHttpRequestExecution execution) {
            this.request = request;
            this.body = body;
            this.execution = execution;
        }

        ClientHttpResponse next() throws IOException {
            closeLatest();
            HttpHeaders sent = copy(this.request.getHeaders());
            HttpRequest attempt = new HttpRequestWrapper(this.request) {

                @Override
                public HttpHeaders getHeaders() {
                    return sent;
                }

            };
            ClientHttpResponse response = this.execution.execute(attempt, this.body);
            this.latest = response;
            HttpStatusCode status;
            try {
                status = response.getStatusCode();
            }
            catch (IOException | RuntimeException ex) {
                closeLatest();
                throw ex;
            }
            this.lastFailure = ResilientClientHttpRequestInterceptor.this.pipelines.failureOf(status,
                    response.getHeaders());
            if (this.lastFailure != null) {
                throw this.lastFailure;
            }
            return response;
        }

        ClientHttpResponse outcome(ExecutionResult<ClientHttpResponse> result) throws IOException {
            ClientHttpResponse value = result.value();
            if (result.isSuccess() && value != null) {
                return keep(value);
            }
            Throwable error = result.error();
            FailedResponseException failure = this.lastFailure;
            ClientHttpResponse failed = this.latest;
            if (failure != null && failed != null && error != null && HttpClientPipelines.endedOn(error, failure)) {
                return keep(failed);
            }
            closeLatest();
            IOException timeout = (error != null) ? HttpClientPipelines.timedOut(describe(), error) : null;
            if (timeout != null) {
                throw timeout;
            }
            if (error instanceof IOException ex) {
                throw ex;
            }
            if (error instanceof RuntimeException ex) {
                throw ex;
            }
            throw new IOException("Request " + describe() + " failed", error);
        }

        private ClientHttpResponse keep(ClientHttpResponse returned) {
            if (this.latest != returned) {
                closeLatest();
            }
            this.latest = null;
            this.lastFailure = null;
            return returned;
        }

        private void closeLatest() {
            ClientHttpResponse response = this.latest;
            this.latest = null;
            this.lastFailure = null;
            if (response != null) {
                response.close();
            }
        }

        private String describe() {
            return HttpClientPipelines.describe(this.request.getMethod(), this.request.getURI());
        }

    }

    private static HttpHeaders copy(HttpHeaders headers) {
        HttpHeaders copy = new HttpHeaders();
        copy.addAll(headers);
        return copy;
    }

}
