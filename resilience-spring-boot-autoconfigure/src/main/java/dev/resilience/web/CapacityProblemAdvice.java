package dev.resilience.web;

import java.time.Duration;

import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.ratelimiter.RateLimitedException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * Answers the refusals of a rate limiter or a bulkhead that escape a controller with RFC
 * 9457 problem responses, as {@link IdempotencyProblemAdvice} does ({@code type}
 * {@code about:blank}, the reason phrase as {@code title}, the request path as
 * {@code instance}, and a {@value IdempotencyProblemAdvice#PROBLEM_PROPERTY} property
 * naming the problem). The detail names neither the limiter nor the bulkhead.
 *
 * <table>
 * <caption>Problems</caption>
 * <tr>
 * <th>exception</th>
 * <th>status</th>
 * <th>{@value IdempotencyProblemAdvice#PROBLEM_PROPERTY}</th>
 * </tr>
 * <tr>
 * <td>{@link RateLimitedException}</td>
 * <td>429, {@code Retry-After}: the exception's wait in seconds, rounded up, at least
 * 1</td>
 * <td>{@value #RATE_LIMITED}</td>
 * </tr>
 * <tr>
 * <td>{@link BulkheadFullException}</td>
 * <td>503, without {@code Retry-After}: when a running call ends is not known</td>
 * <td>{@value #BULKHEAD_FULL}</td>
 * </tr>
 * </table>
 *
 * <p>
 * Its handlers answer before the application's controller advice, so that an
 * application's catch-all advice does not answer these first, but only a refusal that
 * escapes a controller as it is: an application exception that carries one as its cause
 * is the application's to answer ({@link ProblemAdviceExceptionResolver}); replace the
 * bean to answer otherwise.
 */
public class CapacityProblemAdvice {

    /** The problem of a request refused by a rate limiter. */
    public static final String RATE_LIMITED = "rate-limited";

    /** The problem of a request refused by a full bulkhead. */
    public static final String BULKHEAD_FULL = "bulkhead-full";

    /**
     * Answers a request refused by a rate limiter.
     * @param ex the refusal, with the wait after which a permit would be free
     * @return 429 with {@code Retry-After} in whole seconds, rounded up, at least 1
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> rateLimited(RateLimitedException ex) {
        long seconds = retryAfterSeconds(ex.retryAfter());
        return problem(HttpStatus.TOO_MANY_REQUESTS, RATE_LIMITED,
                "Too many requests; retry after " + seconds + ((seconds == 1) ? " second" : " seconds"), seconds);
    }

    /**
     * Answers a request refused by a full bulkhead.
     * @param ex the refusal
     * @return 503
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> bulkheadFull(BulkheadFullException ex) {
        return problem(HttpStatus.SERVICE_UNAVAILABLE, BULKHEAD_FULL,
                "Too many requests are being processed at once; retry later", 0);
    }

    /**
     * Returns a wait in whole seconds, rounded up, at least 1; the longest waits saturate
     * at {@link Long#MAX_VALUE}.
     * @param wait the wait
     * @return the seconds
     */
    static long retryAfterSeconds(Duration wait) {
        long seconds = wait.getSeconds();
        if (wait.getNano() > 0 && seconds < Long.MAX_VALUE) {
            seconds++;
        }
        return Math.max(1, seconds);
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String name, String detail,
            long retryAfterSeconds) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setTitle(status.getReasonPhrase());
        problem.setProperty(IdempotencyProblemAdvice.PROBLEM_PROPERTY, name);
        ResponseEntity.BodyBuilder response = ResponseEntity.status(status)
            .contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (retryAfterSeconds > 0) {
            response.header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        }
        return response.body(problem);
    }

}
