package dev.resilience.core;

import org.jspecify.annotations.Nullable;

/**
 * Stands for an attempt whose value the retry policy's result predicate rejected. When no
 * attempt is left, the call ends with status {@link ExecutionStatus#ERROR} and this
 * error.
 */
public class RejectedResultException extends RuntimeException {

    private final transient @Nullable Object result;

    /**
     * Creates the exception.
     * @param name the instance whose result was rejected
     * @param result the rejected value
     */
    public RejectedResultException(String name, @Nullable Object result) {
        super("Result of '" + name + "' was rejected by its retry policy");
        this.result = result;
    }

    /**
     * Returns the rejected value.
     * @return the value the attempt produced
     */
    public @Nullable Object result() {
        return this.result;
    }

}
