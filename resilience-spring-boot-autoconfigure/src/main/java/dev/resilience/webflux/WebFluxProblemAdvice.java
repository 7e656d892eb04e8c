package dev.resilience.webflux;

import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.idempotency.IdempotencyInProgressException;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import dev.resilience.core.idempotency.IdempotencyStoreException;
import dev.resilience.core.ratelimiter.RateLimitedException;
import dev.resilience.web.CapacityProblemAdvice;
import dev.resilience.web.IdempotencyProblemAdvice;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * Answers the refusals of idempotent, rate-limited and bulkhead-guarded handlers in
 * WebFlux with the problem responses of Spring MVC, by asking the same beans:
 * {@link IdempotencyProblemAdvice} (400, 409, 422, 503) and {@link CapacityProblemAdvice}
 * (429, 503), so that a bean of the application that replaces one of them answers in both
 * stacks. WebFlux renders them as Spring MVC does: {@code application/problem+json}, the
 * request path as {@code instance}.
 *
 * <p>
 * Ordered first, so that an application's catch-all advice does not answer these
 * exceptions first; a controller's own {@code @ExceptionHandler} for one still answers
 * it. Unlike Spring MVC, where the starter answers only an exception that escapes a
 * handler as it is, WebFlux matches the causes of an exception advice by advice: an
 * application exception that carries one of these as its cause is answered here too,
 * unless the controller answers it itself. Replace this bean to answer otherwise.
 */
@ControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class WebFluxProblemAdvice {

    private final IdempotencyProblemAdvice idempotency;

    private final CapacityProblemAdvice capacity;

    /**
     * Creates the advice.
     * @param idempotency the answers to refused idempotency keys
     * @param capacity the answers to rate limits and full bulkheads
     */
    public WebFluxProblemAdvice(IdempotencyProblemAdvice idempotency, CapacityProblemAdvice capacity) {
        this.idempotency = idempotency;
        this.capacity = capacity;
    }

    /**
     * Answers a missing, blank, too long or malformed key.
     * @param ex the refusal
     * @return {@link IdempotencyProblemAdvice#invalidKey}'s answer, 400
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> invalidKey(IdempotencyKeyException ex) {
        return this.idempotency.invalidKey(ex);
    }

    /**
     * Answers a key whose first request is still running.
     * @param ex the refusal
     * @return {@link IdempotencyProblemAdvice#inProgress}'s answer, 409 with
     * {@code Retry-After}
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> inProgress(IdempotencyInProgressException ex) {
        return this.idempotency.inProgress(ex);
    }

    /**
     * Answers a key whose response cannot be replayed.
     * @param ex the refusal
     * @return {@link IdempotencyProblemAdvice#resultUnavailable}'s answer, 409
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> resultUnavailable(IdempotencyResultUnavailableException ex) {
        return this.idempotency.resultUnavailable(ex);
    }

    /**
     * Answers a key reused with another payload.
     * @param ex the refusal
     * @return {@link IdempotencyProblemAdvice#mismatch}'s answer, 422
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> mismatch(IdempotencyKeyMismatchException ex) {
        return this.idempotency.mismatch(ex);
    }

    /**
     * Answers a store that cannot answer.
     * @param ex the failure
     * @return {@link IdempotencyProblemAdvice#storeUnavailable}'s answer, 503 with
     * {@code Retry-After}
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> storeUnavailable(IdempotencyStoreException ex) {
        return this.idempotency.storeUnavailable(ex);
    }

    /**
     * Answers a request refused by a rate limiter.
     * @param ex the refusal
     * @return {@link CapacityProblemAdvice#rateLimited}'s answer, 429 with
     * {@code Retry-After}
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> rateLimited(RateLimitedException ex) {
        return this.capacity.rateLimited(ex);
    }

    /**
     * Answers a request refused by a full bulkhead.
     * @param ex the refusal
     * @return {@link CapacityProblemAdvice#bulkheadFull}'s answer, 503
     */
    @ExceptionHandler
    public ResponseEntity<ProblemDetail> bulkheadFull(BulkheadFullException ex) {
        return this.capacity.bulkheadFull(ex);
    }

}
