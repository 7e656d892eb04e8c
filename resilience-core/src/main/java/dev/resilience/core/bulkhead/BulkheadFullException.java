package dev.resilience.core.bulkhead;

/**
 * Thrown when a {@link Bulkhead} refuses a call: all its permits were in use and none
 * came free within its {@link BulkheadConfig#maxWait() maximum wait}. A pipeline ends
 * such a call with status {@code REJECTED}: it is never retried, never recorded by a
 * circuit breaker as a failure, and goes to the fallbacks. It carries no stack trace, as
 * it is thrown for every refused call and its cause is the bulkhead's load, not the
 * caller's code.
 */
public class BulkheadFullException extends RuntimeException {

    private final String bulkheadName;

    private final int limit;

    /**
     * Creates the exception for a bulkhead that refused a call.
     * @param bulkheadName the name of the bulkhead
     * @param limit the number of concurrent calls it allowed when it refused
     */
    public BulkheadFullException(String bulkheadName, int limit) {
        super("Bulkhead '" + bulkheadName + "' is full: " + limit + " concurrent calls in use", null, false, false);
        this.bulkheadName = bulkheadName;
        this.limit = limit;
    }

    /**
     * Returns the name of the bulkhead that refused the call.
     * @return the bulkhead's name
     */
    public String bulkheadName() {
        return this.bulkheadName;
    }

    /**
     * Returns the number of concurrent calls the bulkhead allowed when it refused.
     * @return the limit at the time of the refusal
     */
    public int limit() {
        return this.limit;
    }

}
