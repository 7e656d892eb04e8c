package dev.resilience.core;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * What becomes of the errors a call met before its final one: suppressed on a final error
 * the call created itself, and logged at DEBUG, since any other final error is thrown as
 * it is.
 */
final class EarlierErrors {

    private static final System.Logger logger = System.getLogger(ResiliencePipeline.class.getName());

    private EarlierErrors() {
    }

    static void settle(String name, ExecutionStatus status, Throwable finalError, boolean ownError,
            @Nullable List<AttemptFailure> failures, @Nullable List<Throwable> fallbackErrors) {
        if (ownError) {
            attachSuppressed(finalError, failures, fallbackErrors);
        }
        log(name, status, finalError, failures, fallbackErrors);
    }

    private static void attachSuppressed(Throwable finalError, @Nullable List<AttemptFailure> failures,
            @Nullable List<Throwable> fallbackErrors) {
        if (failures != null) {
            for (AttemptFailure failure : failures) {
                Suppressed.add(finalError, failure.error());
            }
        }
        if (fallbackErrors != null) {
            for (Throwable fallbackError : fallbackErrors) {
                Suppressed.add(finalError, fallbackError);
            }
        }
    }

    private static void log(String name, ExecutionStatus status, Throwable finalError,
            @Nullable List<AttemptFailure> failures, @Nullable List<Throwable> fallbackErrors) {
        boolean earlierAttempts = failures != null && (failures.size() > 1 || failures.get(0).error() != finalError);
        if ((!earlierAttempts && fallbackErrors == null) || !logger.isLoggable(System.Logger.Level.DEBUG)) {
            return;
        }
        List<String> earlier = new ArrayList<>();
        if (failures != null) {
            failures.stream()
                .filter((failure) -> failure.error() != finalError)
                .map((failure) -> "attempt " + failure.attempt() + ": " + failure.error())
                .forEach(earlier::add);
        }
        if (fallbackErrors != null) {
            fallbackErrors.stream().map((failure) -> "fallback: " + failure).forEach(earlier::add);
        }
        logger.log(System.Logger.Level.DEBUG, "Call of ''{0}'' ended {1} with {2}; before it: {3}", name, status,
                finalError.getClass().getName(), earlier.stream().collect(Collectors.joining("; ")));
    }

}
