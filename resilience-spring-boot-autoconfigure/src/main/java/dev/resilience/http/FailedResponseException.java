package dev.resilience.http;

import java.time.Duration;

import dev.resilience.core.retry.RetryAfter;

import org.springframework.http.HttpStatusCode;

/**
 * An attempt of an outgoing call that was answered with a status that counts as a
 * failure: a server error (5xx) or Too Many Requests (429). It is what the pipeline's
 * retry policy and circuit breaker see for such a response, so a breaker's
 * {@code record-on} and {@code ignore-on} settings can name it; the caller never does, as
 * the last response is returned to it, by a {@code RestClient} and a {@code WebClient}
 * alike. It carries no stack trace.
 */
public final class FailedResponseException extends RuntimeException implements RetryAfter {

    private final HttpStatusCode statusCode;

    private final Duration retryAfter;

    FailedResponseException(HttpStatusCode statusCode, Duration retryAfter) {
        super("Response status " + statusCode.value()
                + (retryAfter.isZero() ? "" : " asking to retry after " + retryAfter.toSeconds() + "s"), null, false,
                false);
        this.statusCode = statusCode;
        this.retryAfter = retryAfter;
    }

    /**
     * Returns the status of the failed response.
     * @return the status code
     */
    public HttpStatusCode statusCode() {
        return this.statusCode;
    }

    /**
     * Returns the wait the response asked for in its {@code Retry-After} header.
     * @return the wait, zero when the header is absent, unreadable or in the past, and at
     * most 999,999,999 seconds however long the header asks for
     */
    @Override
    public Duration retryAfter() {
        return this.retryAfter;
    }

}
