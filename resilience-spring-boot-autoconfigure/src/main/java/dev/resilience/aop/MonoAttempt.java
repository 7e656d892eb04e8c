package dev.resilience.aop;

import java.util.concurrent.CompletableFuture;

import dev.resilience.core.ExecutionResult;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * The subscriber of one attempt's, or fallback's, {@code Mono} ({@link MonoCalls}), with
 * the call's subscriber context, and the future of its first value, or of the value or
 * error of the {@link ExecutionResult} it emits; cancelling the future cancels the
 * subscription. What the {@code Mono} signals once the future is done (cancelled by the
 * engine, or after its first value) goes to the hooks of the subscriber's context, as
 * with Reactor's own operators: a value to the discard hook, an error to the hook of
 * dropped errors.
 */
final class MonoAttempt extends CompletableFuture<@Nullable Object> implements CoreSubscriber<@Nullable Object> {

    private final Context context;

    private final boolean executionResults;

    private volatile @Nullable Subscription subscription;

    /**
     * Creates the subscriber of one attempt.
     * @param context the context of the call's subscriber, which the attempt sees
     * @param executionResults whether the {@code Mono} emits an {@link ExecutionResult}
     * whose value, or error, is the stage's
     */
    MonoAttempt(Context context, boolean executionResults) {
        this.context = context;
        this.executionResults = executionResults;
    }

    @Override
    public Context currentContext() {
        return this.context;
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        if (this.subscription != null) {
            subscription.cancel();
            return;
        }
        this.subscription = subscription;
        if (isDone()) {
            subscription.cancel();
        }
        else {
            subscription.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(@Nullable Object value) {
        boolean taken;
        if (this.executionResults && value instanceof ExecutionResult<?> result) {
            Throwable error = result.error();
            taken = (error != null) ? completeExceptionally(error) : complete(result.value());
        }
        else {
            taken = complete(value);
        }
        if (!taken && value != null) {
            Operators.onDiscard(value, this.context);
        }
    }

    @Override
    public void onError(Throwable error) {
        if (!completeExceptionally(error)) {
            Operators.onErrorDropped(error, this.context);
        }
    }

    @Override
    public void onComplete() {
        if (!isDone()) {
            complete(null);
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        Subscription current = this.subscription;
        if (cancelled && current != null) {
            current.cancel();
        }
        return cancelled;
    }

}
