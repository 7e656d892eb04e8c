package dev.resilience.web;

import java.time.Duration;

import dev.resilience.annotation.Idempotent;
import dev.resilience.core.idempotency.IdempotencyInProgressException;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import dev.resilience.core.idempotency.IdempotencyStoreException;
import dev.resilience.core.time.TimeSource;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * Answers refused idempotent requests with RFC 9457 problem responses
 * ({@code application/problem+json}; type {@code about:blank}, which RFC 9457 writes by
 * leaving {@code type} out; the status's reason phrase as {@code title}, as that type
 * asks; a {@code detail} that quotes at most the first 40 characters of the key; the
 * request path as {@code instance}; and a {@value #PROBLEM_PROPERTY} property naming the
 * problem):
 *
 * <table>
 * <caption>Problems</caption>
 * <tr>
 * <th>exception</th>
 * <th>status</th>
 * <th>{@value #PROBLEM_PROPERTY}</th>
 * </tr>
 * <tr>
 * <td>{@link IdempotencyKeyException}, which {@link IdempotencyKeyHeaderInterceptor} also
 * throws for a missing or blank header that the key of an {@link Idempotent @Idempotent}
 * handler is made of</td>
 * <td>400</td>
 * <td>{@value #KEY_INVALID}</td>
 * </tr>
 * <tr>
 * <td>{@link IdempotencyInProgressException}</td>
 * <td>409, {@code Retry-After}: the seconds until the running request's lease expires, at
 * least 1</td>
 * <td>{@value #KEY_IN_PROGRESS}</td>
 * </tr>
 * <tr>
 * <td>{@link IdempotencyResultUnavailableException}</td>
 * <td>409</td>
 * <td>{@value #RESULT_UNAVAILABLE}</td>
 * </tr>
 * <tr>
 * <td>{@link IdempotencyKeyMismatchException}</td>
 * <td>422</td>
 * <td>{@value #KEY_MISMATCH}</td>
 * </tr>
 * <tr>
 * <td>{@link IdempotencyStoreException}</td>
 * <td>503, {@code Retry-After}: {@value #STORE_RETRY_AFTER_SECONDS}</td>
 * <td>{@value #STORE_UNAVAILABLE}</td>
 * </tr>
 * </table>
 *
 * <p>
 * Its handlers answer before the application's controller advice, so that an
 * application's catch-all advice does not answer these first; replace the bean to answer
 * otherwise. It answers only the exceptions of the idempotency support listed above, and
 * only when one escapes a handler as it is ({@link ProblemAdviceExceptionResolver}): an
 * application exception that carries one as its cause, and every other exception, a
 * missing request header or a failed conversion among them, go on to the application's
 * own exception handlers and to Boot's problem details.
 */
public class IdempotencyProblemAdvice {

    /** The request header that carries the idempotency key. */
    public static final String IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

    /** The extension property of the problem that names it. */
    public static final String PROBLEM_PROPERTY = "problem";

    /** The problem of a missing, blank, too long or malformed key. */
    public static final String KEY_INVALID = "idempotency-key-invalid";

    /** The problem of a key whose first request is still running. */
    public static final String KEY_IN_PROGRESS = "idempotency-key-in-progress";

    /**
     * The problem of a key whose request was processed, but whose response cannot be
     * replayed: the request is not processed again with that key.
     */
    public static final String RESULT_UNAVAILABLE = "idempotency-result-unavailable";

    /** The problem of a key reused with another payload. */
    public static final String KEY_MISMATCH = "idempotency-key-mismatch";

    /** The problem of an idempotency store that cannot answer. */
    public static final String STORE_UNAVAILABLE = "idempotency-store-unavailable";

    /** The {@code Retry-After} of a 503 answer to a store failure, in seconds. */
    public static final long STORE_RETRY_AFTER_SECONDS = 5;

    private final TimeSource timeSource;

    /**
     * Creates the advice.
     * @param timeSource the clock that lease expiries are compared with
     */
    public IdempotencyProblemAdvice(TimeSource timeSource) {
        this.timeSource = timeSource;
    }

    /**
     * Answers a missing, blank, too long or malformed key.
     * @param ex the refusal
     * @return 400 with the reason, quoting at most the start of the key
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> invalidKey(IdempotencyKeyException ex) {
        return problem(HttpStatus.BAD_REQUEST, KEY_INVALID, ex.getMessage());
    }

    /**
     * Answers a key whose first request is still running.
     * @param ex the refusal, with the running request's lease
     * @return 409 with {@code Retry-After} set to the seconds until the lease expires, at
     * least 1
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> inProgress(IdempotencyInProgressException ex) {
        Duration untilExpiry = Duration.between(this.timeSource.now(), ex.leaseExpiresAt());
        long seconds = Math.max(1, untilExpiry.plusMillis(999).toSeconds());
        return problem(HttpStatus.CONFLICT, KEY_IN_PROGRESS, "A request with this idempotency key is still being "
                + "processed; retry after " + seconds + " seconds to receive its response", seconds);
    }

    /**
     * Answers a key whose request was processed, but whose response could not be stored
     * or cannot be read back. No {@code Retry-After}: retrying with the key gets the same
     * answer until the stored entry expires.
     * @param ex the refusal, whose message is not shown
     * @return 409
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> resultUnavailable(IdempotencyResultUnavailableException ex) {
        return problem(HttpStatus.CONFLICT, RESULT_UNAVAILABLE, "A request with this idempotency key was already "
                + "processed, but its response cannot be replayed; the request is not processed again with this key");
    }

    /**
     * Answers a key reused with another payload.
     * @param ex the refusal
     * @return 422
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> mismatch(IdempotencyKeyMismatchException ex) {
        return problem(HttpStatus.UNPROCESSABLE_CONTENT, KEY_MISMATCH,
                "This idempotency key was already used with another request payload; use a new key for a new request");
    }

    /**
     * Answers a store that cannot answer; the request was not processed.
     * @param ex the failure, whose message is not shown
     * @return 503 with {@code Retry-After}
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> storeUnavailable(IdempotencyStoreException ex) {
        return problem(HttpStatus.SERVICE_UNAVAILABLE, STORE_UNAVAILABLE,
                "The request was not processed because its idempotency key could not be checked; retry later",
                STORE_RETRY_AFTER_SECONDS);
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String name, String detail) {
        return problem(status, name, detail, 0);
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String name, String detail,
            long retryAfterSeconds) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setTitle(status.getReasonPhrase());
        problem.setProperty(PROBLEM_PROPERTY, name);
        ResponseEntity.BodyBuilder response = ResponseEntity.status(status)
            .contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (retryAfterSeconds > 0) {
            response.header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        }
        return response.body(problem);
    }

}
