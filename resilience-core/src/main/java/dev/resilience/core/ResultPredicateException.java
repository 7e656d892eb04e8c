package dev.resilience.core;

/**
 * Ends a call whose result predicate (the retry policy's {@code retryOnResult} or the
 * circuit breaker's {@code failOnResult}) threw while it judged an attempt's value: the
 * call ends at once with status {@link ExecutionStatus#ERROR} (and goes to the
 * fallbacks), the attempt is not retried, and the cause is what the predicate threw.
 */
public class ResultPredicateException extends RuntimeException {

    /**
     * Creates the exception.
     * @param name the instance whose result predicate threw
     * @param cause what the predicate threw
     */
    public ResultPredicateException(String name, Throwable cause) {
        super("Result predicate of '" + name + "' threw: " + cause, cause);
    }

}
