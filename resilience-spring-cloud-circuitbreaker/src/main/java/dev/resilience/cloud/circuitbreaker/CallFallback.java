package dev.resilience.cloud.circuitbreaker;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.FallbackChain;
import dev.resilience.core.FallbackHandler;
import org.jspecify.annotations.Nullable;

/**
 * The fallback that one call to a Spring Cloud circuit breaker brings, handed to the
 * engine as the target of the call's context so that one pipeline serves every call: the
 * engine's fallback stage runs it (and counts it, and writes no dead letter when it
 * answers), and it keeps what it failed with, which the caller gets instead of the call's
 * own failure, as Spring Cloud's contract says. Each instance serves one call.
 */
final class CallFallback {

    /** The name of the fallback in meters and results. */
    static final String NAME = "fallback";

    /** The fallbacks of every pipeline of a circuit breaker called with a fallback. */
    static final FallbackChain CHAIN = FallbackChain.of(FallbackHandler.of(NAME, CallFallback::applyTarget));

    private final Function<Throwable, ?> function;

    private volatile @Nullable Throwable failure;

    /**
     * Creates the fallback of a call.
     * @param function gives the fallback value, or a {@link CompletionStage} of it for an
     * asynchronous call, from the call's failure
     */
    CallFallback(Function<Throwable, ?> function) {
        this.function = function;
    }

    /**
     * Returns the context of a call that carries this fallback.
     * @param description what is called, for dead letters
     * @return the context
     */
    CallContext context(String description) {
        return new CallContext(description, this, List.of(), null, "", ExecutionListener.NONE);
    }

    /**
     * Returns what the fallback failed with, once it has run and failed.
     * @return the failure, or {@code null} when it did not run or did not fail
     */
    @Nullable Throwable failure() {
        return this.failure;
    }

    private static @Nullable Object applyTarget(Throwable error, CallContext call) {
        return ((CallFallback) Objects.requireNonNull(call.target())).apply(error);
    }

    private @Nullable Object apply(Throwable error) {
        Object value;
        try {
            value = this.function.apply(error);
        }
        catch (RuntimeException ex) {
            this.failure = ex;
            throw ex;
        }
        if (value instanceof CompletionStage<?> stage) {
            return watched(stage.toCompletableFuture());
        }
        return value;
    }

    /**
     * Returns a stage that completes as the fallback's does, once its failure is kept;
     * cancelling it cancels the fallback's.
     */
    private CompletableFuture<@Nullable Object> watched(CompletableFuture<?> stage) {
        CompletableFuture<@Nullable Object> watched = new CompletableFuture<>();
        stage.whenComplete((value, failure) -> {
            if (failure != null) {
                Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
                        ? failure.getCause() : failure;
                this.failure = cause;
                watched.completeExceptionally(cause);
            }
            else {
                watched.complete(value);
            }
        });
        watched.whenComplete((value, failure) -> stage.cancel(false));
        return watched;
    }

}
