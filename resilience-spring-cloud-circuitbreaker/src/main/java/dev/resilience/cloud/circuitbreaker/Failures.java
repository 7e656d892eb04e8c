package dev.resilience.cloud.circuitbreaker;

import java.lang.reflect.UndeclaredThrowableException;

import org.springframework.cloud.client.circuitbreaker.NoFallbackAvailableException;

/**
 * How the failure of a call reaches the caller of a Spring Cloud circuit breaker.
 */
final class Failures {

    private Failures() {
    }

    /**
     * Returns the failure as thrown by a call that had a fallback: the fallback's own
     * failure, or the call's when the fallback did not run (an {@link Error}, an
     * interrupt); a checked exception, which the suppliers cannot declare, wrapped.
     * @param failure the failure
     * @return the unchecked exception to throw
     */
    static RuntimeException unchecked(Throwable failure) {
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure instanceof RuntimeException runtime) {
            return runtime;
        }
        return new UndeclaredThrowableException(failure);
    }

    /**
     * Returns the failure as thrown by a call without a fallback: Spring Cloud's
     * {@link NoFallbackAvailableException} caused by it, as its default fallback throws;
     * an {@link Error} as it is.
     * @param failure the failure
     * @return the exception to throw
     */
    static RuntimeException withoutFallback(Throwable failure) {
        if (failure instanceof Error error) {
            throw error;
        }
        return new NoFallbackAvailableException("No fallback available.", failure);
    }

}
