package dev.resilience.aop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;

/**
 * One subscription to a {@code Flux} that the engine protects as one call
 * ({@code docs/design/reactive.md}): the subscriber's context, written into every
 * attempt, and the attempt ({@link FluxAttempt}) subscribed last, whose rest the
 * subscriber gets when the call ends with its first element. Each attempt, or fallback,
 * is one subscription whose stage ends at its first signal, so that the engine retries,
 * and a breaker judges, an attempt by it; an error after the first element passes
 * through, never retried, and no element is seen twice. Attempts follow one another (a
 * {@code Flux} is never hedged), so a new attempt cancels the one before, which matters
 * when a result predicate refused its first element. An element no subscriber will see
 * goes to the discard hook of the subscriber's context. Thread-safe.
 */
public final class FluxCall implements MethodArguments.PublisherCall {

    private final Context context;

    private volatile Context attempts;

    private final AtomicReference<@Nullable FluxAttempt> current = new AtomicReference<>();

    private volatile boolean cancelled;

    /**
     * Creates the call of one subscription.
     * @param context the context of the call's subscriber
     */
    public FluxCall(Context context) {
        this.context = context;
        this.attempts = context;
    }

    @Override
    public FluxCall observedBy(@Nullable Object observation) {
        if (observation != null) {
            this.attempts = this.context.put(ObservationThreadLocalAccessor.KEY, observation);
        }
        return this;
    }

    @Override
    public Object subscriberContext() {
        return this.context;
    }

    /**
     * Subscribes an attempt, or a fallback, to its {@code Flux}, cancelling the attempt
     * before it.
     * @param publisher the {@code Flux} of the attempt
     * @return the stage of its first element, completed with {@code null} when it
     * completes empty, or exceptionally with an error before any element; cancelling it
     * cancels the subscription
     */
    public CompletableFuture<@Nullable Object> subscribe(Publisher<?> publisher) {
        FluxAttempt attempt = new FluxAttempt(this.attempts);
        FluxAttempt previous = this.current.getAndSet(attempt);
        if (previous != null) {
            previous.cancel();
        }
        if (this.cancelled) {
            attempt.cancel();
        }
        publisher.subscribe(attempt);
        return attempt.firstSignal();
    }

    /**
     * Returns the rest of the attempt that ended the call with its first element: that
     * element, then the rest as the subscriber asks for it.
     * @return the stream for the call's subscriber
     */
    public Flux<Object> rest() {
        FluxAttempt winner = this.current.get();
        if (winner == null) {
            return Flux.error(new IllegalStateException("The call ended with an element no attempt emitted"));
        }
        return Flux.from(winner);
    }

    /** Cancels the attempt subscribed last, and any that starts afterwards. */
    public void cancel() {
        this.cancelled = true;
        FluxAttempt attempt = this.current.get();
        if (attempt != null) {
            attempt.cancel();
        }
    }

}
