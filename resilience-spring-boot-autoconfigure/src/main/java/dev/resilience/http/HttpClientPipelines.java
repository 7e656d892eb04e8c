package dev.resilience.http;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.resilience.aop.ObservedCalls;
import dev.resilience.core.AttemptTimeoutException;
import dev.resilience.core.DeadlineExceededException;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.TimeSource;
import dev.resilience.registry.ResiliencePolicies;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.util.function.SingletonSupplier;

/**
 * The pipelines and the rules of outgoing HTTP calls, shared by every client that calls
 * through them (the {@code RestClient} interceptor and the {@code WebClient} filter): the
 * retry instance named by {@code resilience.http-client.retry}, and a circuit breaker per
 * host unless {@code resilience.http-client.circuit-breaker-per-host} is false.
 *
 * <p>
 * The first {@code resilience.http-client.max-hosts} hosts called, by whichever client,
 * get a breaker of their own and keep it; the hosts called after them share the breaker
 * {@value #OTHER_HOSTS_CIRCUIT_BREAKER}. Whatever URLs are called, at most
 * {@code max-hosts + 1} breakers are created, each with its meters and event buffer, and
 * as many pipelines are kept; concurrent first requests of many hosts never go past the
 * bound.
 *
 * <ul>
 * <li>Only idempotent requests are retried: GET, HEAD, OPTIONS, PUT, DELETE and TRACE,
 * and any request carrying an {@value #IDEMPOTENCY_KEY_HEADER} header. Any other request
 * is attempted once, through the breaker all the same.</li>
 * <li>A response with a server error (5xx) or Too Many Requests (429) status, a failure
 * of the connection ({@link ConnectionFailures}: an {@link IOException} or an exception
 * caused by one, and Reactor Netty's timeouts and closed connections, which a
 * {@code RestClient} over Reactor Netty sees as {@code IOException}s), and an attempt
 * that outlived the retry instance's {@code attempt-timeout}, are failed attempts:
 * retried, and recorded as failures by the breaker.</li>
 * <li>A {@code Retry-After} header (delta-seconds or HTTP-date) makes the next wait at
 * least that long. A response asking for a longer wait than the smaller of
 * {@code resilience.http-client.max-retry-after} and the retry instance's
 * {@code max-delay} is not retried.</li>
 * </ul>
 *
 * <p>
 * Pipelines are built on a host's first request and kept; statistics, listeners and dead
 * letters are those of the retry instance's name. Each request through them, whichever
 * its client, is one {@code resilience.calls} observation named after the retry instance
 * ({@link ObservedCalls}), with the tags of an annotated method's calls; the host is not
 * one of them: the breakers, at most {@code max-hosts + 1}, tell the hosts apart.
 * Thread-safe.
 */
public final class HttpClientPipelines implements SmartInitializingSingleton {

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

    private final ResiliencePolicies policies;

    private final TimeSource timeSource;

    private final ObservedCalls calls;

    private final String retryName;

    private final SingletonSupplier<RetryPolicy> retry;

    private final Duration maxRetryAfter;

    private final boolean circuitBreakerPerHost;

    private final int maxHosts;

    private final Map<String, Pipelines> hosts = new ConcurrentHashMap<>();

    private final AtomicInteger hostCount = new AtomicInteger();

    private final SingletonSupplier<Pipelines> shared;

    /**
     * Creates pipelines whose requests are not observed.
     * @param policies the application's policies, which resolve the retry instance and
     * the breakers by name
     * @param timeSource the clock that {@code Retry-After} dates are read against
     * @param settings the {@code resilience.http-client} settings
     */
    public HttpClientPipelines(ResiliencePolicies policies, TimeSource timeSource, HttpClientSettings settings) {
        this(policies, timeSource, settings, ObservationRegistry.NOOP);
    }

    /**
     * Creates the pipelines. The retry instance is resolved once the annotated methods
     * are read ({@link #afterSingletonsInstantiated()}), or at the first request if that
     * comes sooner, so that an annotation naming the same instance configures it.
     * @param policies the application's policies, which resolve the retry instance and
     * the breakers by name
     * @param timeSource the clock that {@code Retry-After} dates are read against
     * @param settings the {@code resilience.http-client} settings
     * @param observations where the observation of each request is made
     */
    public HttpClientPipelines(ResiliencePolicies policies, TimeSource timeSource, HttpClientSettings settings,
            ObservationRegistry observations) {
        this.policies = policies;
        this.timeSource = timeSource;
        this.calls = new ObservedCalls(observations);
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
     * auto-configuration of the HTTP clients comes after the one that reads the annotated
     * methods, so this runs after they are read.
     */
    @Override
    public void afterSingletonsInstantiated() {
        this.retry.obtain();
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

    /**
     * Runs a request on this thread through the pipeline of its host, as one observed
     * call, its observation in scope while the attempts run.
     * @param method the request's method
     * @param uri the request's URI
     * @param headers the request's headers
     * @param attempt sends the request once
     * @param <T> the type of the response
     * @return the complete account of the call
     */
    <T> ExecutionResult<T> execute(HttpMethod method, URI uri, HttpHeaders headers, Callable<? extends T> attempt) {
        return this.calls.execute(pipelineOf(method, uri, headers), describe(method, uri), attempt);
    }

    /**
     * Starts a request of a Reactor subscription through the pipeline of its host, as one
     * observed call ({@link ObservedCalls#executeAsync}); cancelling the returned future
     * cancels the call.
     * @param method the request's method
     * @param uri the request's URI
     * @param headers the request's headers
     * @param subscriberContext the Reactor context of the subscription, typed
     * {@code Object} so that this class, which the {@code RestClient} uses too, names no
     * Reactor type
     * @param attempts given the context the attempts subscribe with, returns what sends
     * the request once
     * @param <T> the type of the response
     * @return the future of the complete account of the call
     */
    <T> CompletableFuture<ExecutionResult<T>> executeAsync(HttpMethod method, URI uri, HttpHeaders headers,
            Object subscriberContext, Function<Object, Supplier<? extends CompletionStage<? extends T>>> attempts) {
        return this.calls.executeAsync(pipelineOf(method, uri, headers), describe(method, uri), subscriberContext,
                attempts);
    }

    /**
     * Returns the pipeline a request runs through: its host's, retrying when the request
     * is idempotent, attempting it once otherwise.
     */
    private ResiliencePipeline pipelineOf(HttpMethod method, URI uri, HttpHeaders headers) {
        Pipelines host = pipelinesOf(uri);
        return isRetried(method, headers) ? host.retrying() : host.once();
    }

    /**
     * Tells whether a request may be sent more than once: an idempotent method, or any
     * method with an {@value #IDEMPOTENCY_KEY_HEADER}.
     * @param method the request's method
     * @param headers the request's headers
     * @return {@code true} when the request runs through the retrying pipeline
     */
    static boolean isRetried(HttpMethod method, HttpHeaders headers) {
        return IDEMPOTENT_METHODS.contains(method) || headers.containsHeader(IDEMPOTENCY_KEY_HEADER);
    }

    /**
     * Judges a response's status.
     * @param status the status
     * @param headers the response's headers, whose {@code Retry-After} is read
     * @return the failure the pipeline sees for a 5xx or 429 response, or {@code null}
     * for any other status
     */
    @Nullable FailedResponseException failureOf(HttpStatusCode status, HttpHeaders headers) {
        if (!status.is5xxServerError() && status.value() != HttpStatus.TOO_MANY_REQUESTS.value()) {
            return null;
        }
        return new FailedResponseException(status, RetryAfterHeader.read(headers, this.timeSource.now()));
    }

    /**
     * Tells whether a call ended on a failed response, so that the response is the one to
     * return: the failure itself, or the deadline reached after it.
     * @param error the final error of the call
     * @param failure the failure of an attempt
     * @return {@code true} when the call ended on that attempt's response
     */
    static boolean endedOn(Throwable error, FailedResponseException failure) {
        return error == failure || (error instanceof DeadlineExceededException && error.getCause() == failure);
    }

    /**
     * Returns the error a call that ended on a timeout surfaces as: an
     * {@link IOException}, as a read timeout of the client itself would be.
     * @param description the request's description
     * @param error the final error of the call
     * @return the error for a timeout (its cause is the core's timeout exception), or
     * {@code null} when the call did not end on one
     */
    static @Nullable IOException timedOut(String description, Throwable error) {
        if (error instanceof AttemptTimeoutException || error instanceof DeadlineExceededException) {
            return new IOException("Request " + description + " timed out", error);
        }
        return null;
    }

    /**
     * Describes a request by its method and URL without user info, query or fragment, as
     * dead letters and error messages name it.
     * @param method the request's method
     * @param uri the request's URI
     * @return the description
     */
    static String describe(HttpMethod method, URI uri) {
        return method + " " + RequestUris.withoutUserInfoAndQuery(uri);
    }

    /**
     * Returns the hosts that have a breaker of their own, at most {@code max-hosts}.
     * @return the hosts, as in the breakers' names after the prefix
     */
    Set<String> hostsWithOwnBreaker() {
        return Set.copyOf(this.hosts.keySet());
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

    private boolean isRetryable(Throwable error) {
        return ConnectionFailures.isConnectionFailure(error) || error instanceof AttemptTimeoutException
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

    private record Pipelines(ResiliencePipeline retrying, ResiliencePipeline once) {
    }

}
