package dev.resilience.aop;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

import dev.resilience.core.CarriedContext;
import dev.resilience.core.ExecutionResult;
import org.jspecify.annotations.Nullable;
import reactor.core.CoreSubscriber;
import reactor.core.Exceptions;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * One subscription to a call's {@code Mono} ({@link MonoCalls}), and the consumer of the
 * call's account: the observation is stopped before the subscriber hears the outcome, a
 * value waits for the subscriber's request, and nothing is signalled once it cancelled.
 * Emitting execution results, it emits the account of every call that ends, and signals
 * an error only for an {@link Error} that escaped the call.
 */
final class MonoCallSubscription extends Operators.MonoSubscriber<@Nullable Object, @Nullable Object>
        implements BiConsumer<ExecutionResult<@Nullable Object>, @Nullable Throwable> {

    private final boolean executionResults;

    private CallObserver.@Nullable Call observation;

    private volatile @Nullable CompletableFuture<ExecutionResult<@Nullable Object>> execution;

    MonoCallSubscription(CoreSubscriber<? super @Nullable Object> actual, boolean executionResults) {
        super(actual);
        this.executionResults = executionResults;
    }

    /**
     * Starts the call, on the subscribing thread with the caller's context in place, so
     * that the call's observation is a child of the one the subscriber's context holds
     * and the first attempt sees what the later ones see. A call that ended already is
     * taken at once, without a dependent stage.
     */
    void start(CallObserver.Call observation, Context context, CallerScope scope, CarriedContext caller,
            boolean onExecutor, MonoCalls.CallStart call) {
        this.observation = observation;
        CompletableFuture<ExecutionResult<@Nullable Object>> started;
        try {
            started = call.start(context, scope, observation, caller, onExecutor);
        }
        catch (RuntimeException | Error ex) {
            Exceptions.throwIfJvmFatal(ex);
            observation.fail(ex);
            signalError(ex);
            return;
        }
        this.execution = started;
        if (isCancelled()) {
            started.cancel(false);
        }
        if (started.isDone() && !started.isCompletedExceptionally()) {
            accept(started.join(), null);
        }
        else {
            started.whenComplete(this);
        }
    }

    /**
     * Takes the call's account and signals its outcome; what the subscriber throws from
     * its signal, against the Reactive Streams rules, goes to the hook of dropped errors,
     * whether the call ended at once or later.
     */
    @Override
    public void accept(ExecutionResult<@Nullable Object> result, @Nullable Throwable failure) {
        try {
            signal(result, failure);
        }
        catch (RuntimeException | Error ex) {
            Exceptions.throwIfJvmFatal(ex);
            Operators.onErrorDropped(ex, currentContext());
        }
    }

    private void signal(ExecutionResult<@Nullable Object> result, @Nullable Throwable failure) {
        CallObserver.Call observed = this.observation;
        if (failure != null) {
            if (observed != null) {
                observed.fail(failure);
            }
            signalError(failure);
            return;
        }
        if (observed != null) {
            observed.stop(result);
        }
        if (this.executionResults) {
            complete(result);
            return;
        }
        Throwable error = result.error();
        if (!result.isSuccess() && error != null) {
            signalError(error);
            return;
        }
        Object value = result.value();
        if (value != null) {
            complete(value);
        }
        else if (!isCancelled()) {
            this.actual.onComplete();
        }
    }

    /**
     * Signals the call's error, or, once the subscriber cancelled, hands an error other
     * than the call's cancellation to the hook of dropped errors.
     */
    private void signalError(Throwable error) {
        if (!isCancelled()) {
            this.actual.onError(error);
        }
        else if (!(error instanceof CancellationException)) {
            Operators.onErrorDropped(error, currentContext());
        }
    }

    @Override
    public void cancel() {
        super.cancel();
        CompletableFuture<ExecutionResult<@Nullable Object>> started = this.execution;
        if (started != null) {
            started.cancel(false);
        }
    }

}
