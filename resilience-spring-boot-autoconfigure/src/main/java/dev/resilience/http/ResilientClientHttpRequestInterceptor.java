package dev.resilience.http;

import java.io.IOException;
import java.net.URI;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.AttemptTimeoutException;
import dev.resilience.core.CallContext;
import dev.resilience.core.DeadlineExceededException;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.TimeSource;
import dev.resilience.registry.ResiliencePolicies;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.util.function.SingletonSupplier;

/**
 * Runs each outgoing request through a {@link ResiliencePipeline}: the retry instance
 * named by {@code resilience.http-client.retry}, and a circuit breaker per host unless
 * {@code resilience.http-client.circuit-breaker-per-host} is false.
 *
 * <p>
 * The first {@code resilience.http-client.max-hosts} hosts called get a breaker of their
 * own and keep it; the hosts called after them share the breaker
 * {@value #OTHER_HOSTS_CIRCUIT_BREAKER}. Whatever URLs are called, the interceptor
 * creates at most {@code max-hosts + 1} breakers, each with its meters and event buffer,
 * and keeps as many pipelines; concurrent first requests of many hosts never go past the
 * bound.
 *
 * <ul>
 * <li>Only idempotent requests are retried: GET, HEAD, OPTIONS, PUT, DELETE and TRACE,
 * and any request carrying an {@value #IDEMPOTENCY_KEY_HEADER} header. Any other request
 * is attempted once, through the breaker all the same.</li>
 * <li>A response with a server error (5xx) or Too Many Requests (429) status, an
 * {@link IOException}, and an attempt that outlived the retry instance's
 * {@code attempt-timeout}, are failed attempts: retried, and recorded as failures by the
 * breaker. Every other response is returned to the caller at once and counts as a success
 * for the breaker: a 4xx says the request was wrong, not that the host is unwell.</li>
 * <li>A {@code Retry-After} header (delta-seconds or HTTP-date) makes the next wait at
 * least that long. A response asking for a longer wait than the smaller of
 * {@code resilience.http-client.max-retry-after} and the retry instance's
 * {@code max-delay} is returned at once, not retried: no retry is sent before the server
 * allows it. A header that is neither a number of seconds nor a date, or a date in the
 * past, is ignored; a wait too long to represent counts as the longest one.</li>
 * <li>Every attempt sends the same request: its headers, {@value #IDEMPOTENCY_KEY_HEADER}
 * included, and its body bytes.</li>
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
 * </ul>
 *
 * <p>
 * Pipelines are built on a host's first request and kept; statistics, listeners and dead
 * letters are those of the retry instance's name. Thread-safe.
 */
public final class ResilientClientHttpRequestInterceptor
        implements ClientHttpRequestInterceptor, SmartInitializingSingleton {

    /** The header that makes a request of any method safe to retry. */
    public static final String IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

    /** The prefix of the names of the breakers per host. */
    public static final String CIRCUIT_BREAKER_PREFIX = "http-client:";

    /**
     * The name of the breaker shared by the hosts called after the first
     * {@code max-hosts}.
     */
    public static final String OTHER_HOSTS_CIRCUIT_BREAKER = CIRCUIT_BREAKER_PREFIX + "other";

    private static final Set<HttpMethod> IDEMPOTENT_METHODS = Set.of(HttpMethod.GET, HttpMethod.HEAD,
            HttpMethod.OPTIONS, HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.TRACE);

    /** Caps a wait read from a header so that it fits in nanoseconds. */
    private static final Duration LONGEST_RETRY_AFTER = Duration.ofSeconds(999_999_999);

    private static final int LONGEST_RETRY_AFTER_DIGITS = 9;

    private final ResiliencePolicies policies;

    private final TimeSource timeSource;

    private final String retryName;

    private final SingletonSupplier<RetryPolicy> retry;

    private final Duration maxRetryAfter;

    private final boolean circuitBreakerPerHost;

    private final int maxHosts;

    private final Map<String, Pipelines> hosts = new ConcurrentHashMap<>();

    private final AtomicInteger hostCount = new AtomicInteger();

    private final SingletonSupplier<Pipelines> shared;

    /**
     * Creates the interceptor. Its retry instance is resolved once the annotated methods
     * are read ({@link #afterSingletonsInstantiated()}), or at the first request if that
     * comes sooner, so that an annotation naming the same instance configures it.
     * @param policies the application's policies, which resolve the retry instance and
     * the breakers by name
     * @param timeSource the clock that {@code Retry-After} dates are read against
     * @param settings the {@code resilience.http-client} settings
     */
    public ResilientClientHttpRequestInterceptor(ResiliencePolicies policies, TimeSource timeSource,
            HttpClientSettings settings) {
        this.policies = policies;
        this.timeSource = timeSource;
        this.retryName = settings.retry();
        this.circuitBreakerPerHost = settings.circuitBreakerPerHost();
        this.maxHosts = settings.maxHosts();
        this.maxRetryAfter = settings.maxRetryAfter();
        this.retry = SingletonSupplier
            .of(() -> policies.registry().retry(this.retryName).toBuilder().retryOnError(this::isRetryable).build());
        this.shared = SingletonSupplier
            .of(() -> pipelinesGuardedBy(this.circuitBreakerPerHost ? OTHER_HOSTS_CIRCUIT_BREAKER : null));
    }

    /**
     * Resolves and registers the retry instance, so that it exists from the start; the
     * auto-configuration of the HTTP client comes after the one that reads the annotated
     * methods, so this runs after they are read.
     */
    @Override
    public void afterSingletonsInstantiated() {
        this.retry.obtain();
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
        Pipelines host = pipelinesOf(request.getURI());
        ResiliencePipeline pipeline = isIdempotent(request) ? host.retrying() : host.once();
        Attempts attempts = new Attempts(request, body, execution);
        CallContext context = CallContext
            .of(request.getMethod() + " " + RequestUris.withoutUserInfoAndQuery(request.getURI()), List.of());
        return attempts.outcome(pipeline.execute(context, attempts::next));
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
        return CIRCUIT_BREAKER_PREFIX + RequestUris.host(uri);
    }

    private Pipelines pipelinesOf(URI uri) {
        if (!this.circuitBreakerPerHost) {
            return this.shared.obtain();
        }
        String host = RequestUris.host(uri);
        Pipelines own = this.hosts.get(host);
        if (own == null && this.hostCount.get() < this.maxHosts) {
            own = this.hosts.computeIfAbsent(host, this::admit);
        }
        return (own != null) ? own : this.shared.obtain();
    }

    /**
     * Gives a host seen for the first time a breaker of its own while fewer than
     * {@code max-hosts} have one. Runs inside the map's atomic {@code computeIfAbsent},
     * so a host takes at most one place however many of its requests come first at once.
     * @param host the host
     * @return the host's pipelines, or {@code null} when every place is taken
     */
    private @Nullable Pipelines admit(String host) {
        if (this.hostCount.getAndUpdate((count) -> (count < this.maxHosts) ? count + 1 : count) >= this.maxHosts) {
            return null;
        }
        try {
            return pipelinesGuardedBy(CIRCUIT_BREAKER_PREFIX + host);
        }
        catch (RuntimeException | Error ex) {
            this.hostCount.decrementAndGet();
            throw ex;
        }
    }

    private Pipelines pipelinesGuardedBy(@Nullable String circuitBreakerName) {
        ResiliencePipeline.Builder retrying = this.policies.pipeline(this.retryName).retry(this.retry.obtain());
        ResiliencePipeline.Builder once = this.policies.pipeline(this.retryName);
        if (circuitBreakerName != null) {
            var breaker = this.policies.registry().circuitBreaker(circuitBreakerName);
            retrying.circuitBreaker(breaker);
            once.circuitBreaker(breaker);
        }
        return new Pipelines(retrying.build(), once.build());
    }

    /**
     * Returns the hosts that have a breaker of their own, at most {@code max-hosts}.
     * @return the hosts, as in the breakers' names after the prefix
     */
    Set<String> hostsWithOwnBreaker() {
        return Set.copyOf(this.hosts.keySet());
    }

    private static boolean isIdempotent(HttpRequest request) {
        return IDEMPOTENT_METHODS.contains(request.getMethod())
                || request.getHeaders().containsHeader(IDEMPOTENCY_KEY_HEADER);
    }

    private boolean isRetryable(Throwable error) {
        return error instanceof IOException || error instanceof AttemptTimeoutException
                || (error instanceof FailedResponseException failed
                        && failed.retryAfter().compareTo(longestRetryAfter()) <= 0);
    }

    /**
     * Returns the longest {@code Retry-After} that is waited for: the shorter of the
     * setting and the retry policy's longest backoff.
     */
    private Duration longestRetryAfter() {
        Duration maxDelay = this.retry.obtain().backoff().maxDelay();
        return (maxDelay.compareTo(this.maxRetryAfter) < 0) ? maxDelay : this.maxRetryAfter;
    }

    private static boolean isFailure(HttpStatusCode status) {
        return status.is5xxServerError() || status.value() == HttpStatus.TOO_MANY_REQUESTS.value();
    }

    /**
     * Reads the wait a response asks for.
     * @param headers the response's headers
     * @return the wait, at most {@link #LONGEST_RETRY_AFTER}; zero when the header is
     * absent, is neither delta-seconds nor an HTTP-date, or names a date in the past
     */
    private Duration retryAfter(HttpHeaders headers) {
        String value = headers.getFirst(HttpHeaders.RETRY_AFTER);
        if (value == null || value.isBlank()) {
            return Duration.ZERO;
        }
        value = value.trim();
        if (value.chars().allMatch((c) -> c >= '0' && c <= '9')) {
            return delaySeconds(value);
        }
        try {
            ZonedDateTime date = headers.getFirstZonedDateTime(HttpHeaders.RETRY_AFTER);
            Duration wait = (date != null) ? Duration.between(this.timeSource.now(), date.toInstant()) : Duration.ZERO;
            return wait.isNegative() ? Duration.ZERO
                    : (wait.compareTo(LONGEST_RETRY_AFTER) > 0) ? LONGEST_RETRY_AFTER : wait;
        }
        catch (IllegalArgumentException | DateTimeException ex) {
            return Duration.ZERO;
        }
    }

    private static Duration delaySeconds(String digits) {
        int start = 0;
        while (start < digits.length() - 1 && digits.charAt(start) == '0') {
            start++;
        }
        String significant = digits.substring(start);
        return (significant.length() > LONGEST_RETRY_AFTER_DIGITS) ? LONGEST_RETRY_AFTER
                : Duration.ofSeconds(Long.parseLong(significant));
    }

    private record Pipelines(ResiliencePipeline retrying, ResiliencePipeline once) {
    }

    /**
     * The attempts of one request, on the caller's thread: keeps the response of the
     * latest attempt open until the next attempt or the end of the call, and closes it
     * then unless it is the one returned. The pipeline discards the value of an attempt
     * that timed out, so only this class can close that response.
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
            ClientHttpResponse response = this.execution.execute(this.request, this.body);
            this.latest = response;
            HttpStatusCode status;
            try {
                status = response.getStatusCode();
            }
            catch (IOException | RuntimeException ex) {
                closeLatest();
                throw ex;
            }
            if (isFailure(status)) {
                this.lastFailure = new FailedResponseException(status, retryAfter(response.getHeaders()), response);
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
            if (failure != null && error != null && (error == failure
                    || (error instanceof DeadlineExceededException && error.getCause() == failure))) {
                return keep(failure.response());
            }
            closeLatest();
            if (error instanceof AttemptTimeoutException || error instanceof DeadlineExceededException) {
                throw new IOException("Request " + describe() + " timed out", error);
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
            return this.request.getMethod() + " " + RequestUris.withoutUserInfoAndQuery(this.request.getURI());
        }

    }

}
