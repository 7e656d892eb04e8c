package dev.resilience.core.deadletter;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

import dev.resilience.core.ExecutionStatus;
import org.jspecify.annotations.Nullable;

/**
 * A call that ended, after its fallbacks, without its work done: with status
 * {@link ExecutionStatus#ERROR}, {@link ExecutionStatus#TIMEOUT}, or
 * {@link ExecutionStatus#REJECTED} by an open breaker.
 *
 * @param id the unique id, see {@link DeadLetterIds}
 * @param name the name of the protected call
 * @param method the method, such as {@code PaymentService#pay}
 * @param arguments the arguments, as JSON where they serialize
 * @param errorClass the fully qualified class of the final error
 * @param errorMessage the final error's message, if it had one
 * @param attempts how many times the method ran
 * @param firstAttemptAt when the first attempt started
 * @param lastAttemptAt when the last attempt started
 * @param status how the call ended
 */
public record DeadLetter(String id, String name, String method, List<String> arguments, String errorClass,
        @Nullable String errorMessage, int attempts, Instant firstAttemptAt, Instant lastAttemptAt,
        ExecutionStatus status) {

    /**
     * Checks the required components and copies the arguments, so that a dead letter
     * never changes once built.
     */
    public DeadLetter {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(method, "method");
        arguments = List.copyOf(arguments);
        Objects.requireNonNull(errorClass, "errorClass");
        Objects.requireNonNull(firstAttemptAt, "firstAttemptAt");
        Objects.requireNonNull(lastAttemptAt, "lastAttemptAt");
        Objects.requireNonNull(status, "status");
    }
}
