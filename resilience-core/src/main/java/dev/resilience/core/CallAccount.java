package dev.resilience.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * The future of an asynchronous call's account, completed outside what the call carries
 * from its caller ({@link CarriedContext}): an account reached while a carried step runs
 * is completed once that step has put the thread's own context back, so that what the
 * caller chained on the future runs with the thread's own context, not with the caller's
 * captured one and the call's ended observation.
 *
 * @param <T> the type of the call's value
 */
final class CallAccount<T> {

    private static final VarHandle CARRYING;

    private static final VarHandle DEFERRED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            CARRYING = lookup.findVarHandle(CallAccount.class, "carrying", Thread.class);
            DEFERRED = lookup.findVarHandle(CallAccount.class, "deferred", Runnable.class);
        }
        catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final CompletableFuture<ExecutionResult<T>> future = new CompletableFuture<>();

    /** The thread running a carried step of the call, if one runs. */
    private volatile @Nullable Thread carrying;

    /** The completion reached while the step ran, to run once it has ended. */
    private volatile @Nullable Runnable deferred;

    /**
     * Returns the future of the account.
     * @return the future, which the caller gets
     */
    CompletableFuture<ExecutionResult<T>> future() {
        return this.future;
    }

    /**
     * Returns a step run with the call's context, and the account it reaches completed
     * after the context is put back. A step run while a carried step of the call runs on
     * another thread completes the account as it reaches it, inside what it carries.
     * @param context what the call carries
     * @param step the step
     * @return the step itself when the call carries nothing
     */
    Runnable carried(CarriedContext context, Runnable step) {
        Runnable carried = CarriedStep.of(context, step);
        if (carried == step) {
            return step;
        }
        return () -> {
            Thread thread = Thread.currentThread();
            boolean marked = CARRYING.compareAndSet(this, null, thread);
            try {
                carried.run();
            }
            finally {
                if (marked) {
                    this.carrying = null;
                    Runnable completion = (Runnable) DEFERRED.getAndSet(this, null);
                    if (completion != null) {
                        completion.run();
                    }
                }
            }
        };
    }

    /**
     * Completes the future with the account.
     * @param account the call's account
     */
    void complete(ExecutionResult<T> account) {
        if (carriedHere()) {
            this.deferred = () -> this.future.complete(account);
        }
        else {
            this.future.complete(account);
        }
    }

    /**
     * Completes the future with a failure of the engine.
     * @param failure what ended the call without an account
     */
    void fail(Throwable failure) {
        if (carriedHere()) {
            this.deferred = () -> this.future.completeExceptionally(failure);
        }
        else {
            this.future.completeExceptionally(failure);
        }
    }

    private boolean carriedHere() {
        return this.carrying == Thread.currentThread();
    }

}
