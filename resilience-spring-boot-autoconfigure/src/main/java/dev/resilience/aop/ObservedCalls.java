package dev.resilience.aop;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.resilience.core.CallContext;
import dev.resilience.core.CarriedContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import io.micrometer.observation.ObservationRegistry;

/**
 * Runs the calls of a pipeline that code other than an annotated method makes (the HTTP
 * clients' requests) as observed calls, the way an annotated method's calls are: each is
 * one {@code resilience.calls} observation ({@link CallObserver}) named after the
 * pipeline, with the keys {@code name}, {@code status} and {@code fallback}, an event per
 * retry, the call's observation in scope while its steps run, and the caller's context
 * carried to the threads that run its later steps. Each observation is stopped exactly
 * once, before the caller hears the outcome. Thread-safe.
 */
public final class ObservedCalls {

    private final CallObserver observer;

    /**
     * Creates the calls' observer; it carries the caller's context to a call's later
     * steps when Micrometer's context-propagation is on the class path.
     * @param registry where observations are made
     */
    public ObservedCalls(ObservationRegistry registry) {
        this.observer = new CallObserver(registry);
    }

    /**
     * Runs a call on this thread, its observation in scope while it runs, so that the
     * observations its attempts make are children of the call's.
     * @param pipeline the pipeline, whose name names the observation
     * @param description what is called, for dead letters
     * @param action one attempt
     * @param <T> the type of the call's value
     * @return the complete account of the call
     */
    public <T> ExecutionResult<T> execute(ResiliencePipeline pipeline, String description,
            Callable<? extends T> action) {
        return execute(pipeline, CallContext.of(description, List.of()), action);
    }

    /**
     * Runs a call on this thread with a context of the caller's (a target its fallbacks
     * read), its observation in scope while it runs.
     * @param pipeline the pipeline, whose name names the observation
     * @param call the call's context, without a listener of its own: the observation's is
     * set on it
     * @param action one attempt
     * @param <T> the type of the call's value
     * @return the complete account of the call
     */
    public <T> ExecutionResult<T> execute(ResiliencePipeline pipeline, CallContext call, Callable<? extends T> action) {
        CallObserver.Call observation = this.observer.start(pipeline.name());
        try {
            CallContext context = call.withListener(observation.listener());
            return observation.stop(observation.scoped(() -> pipeline.<T>execute(context, action)).get());
        }
        catch (RuntimeException | Error ex) {
            observation.fail(ex);
            throw ex;
        }
    }

    /**
     * Starts a call on the engine's asynchronous path for a Reactor subscription, as a
     * {@code Mono} method's call starts: the caller's context, captured from the
     * subscriber's, is in place while the call starts, so that the observation in it is
     * the parent of the call's; each attempt gets the subscriber's context with the
     * call's observation in it, where instrumentation that reads the Reactor context
     * finds the parent of its own observations. Cancelling the returned future cancels
     * the call, whose observation stops with status {@code error} and the
     * {@code CancellationException}, as a cancelled {@code Mono} method's does. It names
     * Reactor's context, so it is called only where Reactor is on the class path.
     * @param pipeline the pipeline, whose name names the observation
     * @param description what is called, for dead letters
     * @param subscriberContext the Reactor context of the subscription the call is made
     * for
     * @param attempts given the context the call's attempts subscribe with, returns what
     * starts one attempt
     * @param <T> the type of the call's value
     * @return a future that completes with the complete account of the call once its
     * observation is stopped, or exceptionally with an {@link Error} that escaped the
     * call or its observation's handlers
     */
    public <T> CompletableFuture<ExecutionResult<T>> executeAsync(ResiliencePipeline pipeline, String description,
            Object subscriberContext, Function<Object, Supplier<? extends CompletionStage<? extends T>>> attempts) {
        return executeAsync(pipeline, CallContext.of(description, List.of()), subscriberContext, attempts);
    }

    /**
     * Starts a call for a Reactor subscription as
     * {@link #executeAsync(ResiliencePipeline, String, Object, Function)} does, with a
     * context of the caller's (a target its fallbacks read).
     * @param pipeline the pipeline, whose name names the observation
     * @param call the call's context, without a listener or carried context of its own:
     * the observation's are set on it
     * @param subscriberContext the Reactor context of the subscription the call is made
     * for
     * @param attempts given the context the call's attempts subscribe with, returns what
     * starts one attempt
     * @param <T> the type of the call's value
     * @return a future that completes with the complete account of the call once its
     * observation is stopped
     */
    public <T> CompletableFuture<ExecutionResult<T>> executeAsync(ResiliencePipeline pipeline, CallContext call,
            Object subscriberContext, Function<Object, Supplier<? extends CompletionStage<? extends T>>> attempts) {
        CarriedContext caller = this.observer.capture(subscriberContext);
        if (caller == CarriedContext.NONE) {
            return start(pipeline, call, subscriberContext, caller, attempts);
        }
        List<CompletableFuture<ExecutionResult<T>>> started = new ArrayList<>(1);
        caller.around(() -> started.add(start(pipeline, call, subscriberContext, caller, attempts))).run();
        return started.get(0);
    }

    private <T> CompletableFuture<ExecutionResult<T>> start(ResiliencePipeline pipeline, CallContext call,
            Object subscriberContext, CarriedContext caller,
            Function<Object, Supplier<? extends CompletionStage<? extends T>>> attempts) {
        CallObserver.Call observation = this.observer.start(pipeline.name());
        try {
            Supplier<? extends CompletionStage<? extends T>> attempt = attempts
                .apply(MonoCalls.observedIn(subscriberContext, observation.observation()));
            CallContext context = call.withListener(observation.listener()).withCarried(observation.carried(caller));
            return stoppedAtTheEnd(observation.scoped(() -> pipeline.<T>executeAsync(context, attempt)).get(),
                    observation);
        }
        catch (RuntimeException | Error ex) {
            observation.fail(ex);
            throw ex;
        }
    }

    /**
     * Returns the future the caller gets: it completes as the call's does, after the
     * observation is stopped, and cancelling it cancels the call. An {@link Error} a
     * handler throws while the observation stops completes it exceptionally, as the same
     * error reaches the caller of a call on its thread.
     */
    private static <T> CompletableFuture<ExecutionResult<T>> stoppedAtTheEnd(
            CompletableFuture<ExecutionResult<T>> execution, CallObserver.Call observation) {
        CompletableFuture<ExecutionResult<T>> ended = new CompletableFuture<>();
        execution.whenComplete((result, failure) -> {
            try {
                if (failure != null) {
                    observation.fail(failure);
                    ended.completeExceptionally(failure);
                }
                else {
                    ended.complete(observation.stop(result));
                }
            }
            catch (Error ex) {
                ended.completeExceptionally(ex);
            }
        });
        ended.whenComplete((result, failure) -> execution.cancel(false));
        return ended;
    }

}
