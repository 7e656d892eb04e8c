package dev.resilience.cloud.circuitbreaker;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import org.jspecify.annotations.Nullable;

import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;

/**
 * A Spring Cloud {@link CircuitBreaker} whose calls run, on the caller's thread, through
 * the pipeline of its instance name: the breaker, and the retry instance, time limiter
 * and bulkhead its selection and the YAML switch on. A call that ends without a value
 * goes to the fallback it brings with its failure: the breaker's
 * {@code CallNotPermittedException} while it is open, a {@code BulkheadFullException}, an
 * {@code AttemptTimeoutException}, or the last attempt's exception. What the fallback
 * throws is thrown to the caller. An {@link Error} goes to no fallback and is thrown as
 * it is. Thread-safe; cheap to create, as OpenFeign creates one per call.
 */
final class ResilienceCircuitBreaker implements CircuitBreaker {

    private final CircuitBreakerPipelines pipelines;

    private final String name;

    private final PolicySelection selection;

    private final String description;

    ResilienceCircuitBreaker(CircuitBreakerPipelines pipelines, String id, String name, PolicySelection selection) {
        this.pipelines = pipelines;
        this.name = name;
        this.selection = selection;
        this.description = "Spring Cloud circuit breaker " + id;
    }

    /**
     * Runs a call; when it ends without a value, throws Spring Cloud's
     * {@code NoFallbackAvailableException} caused by its failure.
     * @param toRun the call, once per attempt
     * @param <T> the type of its value
     * @return its value
     */
    @Override
    public <T> T run(Supplier<T> toRun) {
        ResiliencePipeline pipeline = this.pipelines.pipeline(this.name, this.selection, false);
        ExecutionResult<T> result = this.pipelines.calls()
            .execute(pipeline, CallContext.of(this.description, List.of()), toRun::get);
        if (result.isSuccess()) {
            return valueOf(result);
        }
        throw Failures.withoutFallback(Objects.requireNonNull(result.error()));
    }

    /**
     * Runs a call and, when it ends without a value, its fallback.
     * @param toRun the call, once per attempt
     * @param fallback gives the value from the call's failure
     * @param <T> the type of its value
     * @return the call's value or the fallback's
     */
    @Override
    public <T> T run(Supplier<T> toRun, Function<@Nullable Throwable, T> fallback) {
        ResiliencePipeline pipeline = this.pipelines.pipeline(this.name, this.selection, true);
        CallFallback callFallback = new CallFallback(fallback);
        ExecutionResult<T> result = this.pipelines.calls()
            .execute(pipeline, callFallback.context(this.description), toRun::get);
        if (result.isSuccess()) {
            return valueOf(result);
        }
        Throwable failure = callFallback.failure();
        throw Failures.unchecked((failure != null) ? failure : Objects.requireNonNull(result.error()));
    }

    private static <T> T valueOf(ExecutionResult<T> result) {
        return result.value();
    }

}
