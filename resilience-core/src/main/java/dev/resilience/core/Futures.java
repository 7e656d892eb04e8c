package dev.resilience.core;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

import org.jspecify.annotations.Nullable;

/**
 * How the asynchronous driver reads the stages of attempts and fallbacks: as futures,
 * their outcome unwrapped, cancelled without throwing.
 */
final class Futures {

    private Futures() {
    }

    @SuppressWarnings("unchecked")
    static <V> CompletableFuture<V> future(CompletionStage<V> stage) {
        if (stage instanceof CompletableFuture<?> future) {
            return (CompletableFuture<V>) future;
        }
        try {
            return stage.toCompletableFuture();
        }
        catch (UnsupportedOperationException ex) {
            CompletableFuture<V> future = new CompletableFuture<>();
            stage.whenComplete((value, failure) -> {
                if (failure == null) {
                    future.complete(value);
                }
                else {
                    future.completeExceptionally(failure);
                }
            });
            return future;
        }
    }

    static <V> @Nullable V valueOf(CompletableFuture<V> done) {
        return done.isCompletedExceptionally() ? null : done.join();
    }

    /**
     * Returns the failure a done future holds, the very instance it was completed with:
     * not what {@code join} throws, which on newer JDKs (Java 25, not 17) is a new
     * {@link CancellationException} caused by the future's own (a Kotlin
     * {@code TimeoutCancellationException}, say).
     */
    static @Nullable Throwable failureOf(CompletableFuture<?> done) {
        if (!done.isCompletedExceptionally()) {
            return null;
        }
        Throwable[] failure = new Throwable[1];
        done.whenComplete((value, ex) -> failure[0] = ex);
        Throwable held = failure[0];
        return (held instanceof CompletionException && held.getCause() != null) ? held.getCause() : held;
    }

    static void cancelQuietly(CompletableFuture<?> stage) {
        try {
            stage.cancel(true);
        }
        catch (RuntimeException ex) {
            // a stage that cannot be cancelled runs on; its outcome is no longer awaited
        }
    }

    static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

}
