package dev.resilience.cloud.circuitbreaker;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * One attempt of a {@code Flux} call: a subscription to the {@code Flux} whose stage
 * completes at its first signal, so that the engine retries, and the breaker judges, an
 * attempt by it and no subscriber ever sees an element twice. The stage completes with
 * this attempt as a publisher of the whole {@code Flux} (its first element, then the rest
 * as the subscriber asks for it), with an empty publisher when it completes without an
 * element, or exceptionally with the error it signals first. Until then one element is
 * asked for. Cancelling the stage, or the subscription of the one subscriber of the
 * publisher, cancels the subscription to the {@code Flux}. Thread-safe.
 *
 * @param <T> the type of the elements
 */
final class FluxAttempt<T> extends CompletableFuture<Publisher<T>>
        implements CoreSubscriber<T>, Subscription, Publisher<T> {

    private static final Subscription CANCELLED = Operators.emptySubscription();

    private final Context context;

    private final AtomicReference<@Nullable Subscription> upstream = new AtomicReference<>();

    private final AtomicReference<@Nullable Subscriber<? super T>> downstream = new AtomicReference<>();

    private final AtomicLong demand = new AtomicLong();

    private final AtomicInteger work = new AtomicInteger();

    private @Nullable T first;

    private boolean firstEmitted;

    private volatile boolean passThrough;

    private volatile boolean done;

    private volatile @Nullable Throwable error;

    private boolean terminated;

    private FluxAttempt(ContextView context) {
        this.context = Context.of(context);
    }

    /**
     * Subscribes to a {@code Flux} for one attempt.
     * @param flux the call's {@code Flux}
     * @param context the context the attempt subscribes with
     * @param <T> the type of the elements
     * @return the stage of the attempt's first signal
     */
    static <T> FluxAttempt<T> subscribe(Flux<T> flux, ContextView context) {
        FluxAttempt<T> attempt = new FluxAttempt<>(context);
        flux.subscribe(attempt);
        return attempt;
    }

    @Override
    public Context currentContext() {
        return this.context;
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        if (!this.upstream.compareAndSet(null, subscription)) {
            subscription.cancel();
            return;
        }
        subscription.request(1);
    }

    @Override
    public void onNext(T element) {
        if (this.passThrough) {
            Subscriber<? super T> subscriber = this.downstream.get();
            if (subscriber != null) {
                subscriber.onNext(element);
            }
            return;
        }
        this.first = element;
        if (!complete(this)) {
            Operators.onDiscard(element, this.context);
            cancelUpstream();
        }
    }

    @Override
    public void onError(Throwable failure) {
        if (this.first == null) {
            if (!completeExceptionally(failure)) {
                Operators.onErrorDropped(failure, this.context);
            }
            return;
        }
        this.error = failure;
        this.done = true;
        drain();
    }

    @Override
    public void onComplete() {
        if (this.first == null) {
            complete(Flux.empty());
            return;
        }
        this.done = true;
        drain();
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            cancelUpstream();
        }
        return cancelled;
    }

    @Override
    public void subscribe(Subscriber<? super T> subscriber) {
        if (!this.downstream.compareAndSet(null, subscriber)) {
            Operators.error(subscriber, new IllegalStateException("A Flux attempt allows one subscriber"));
            return;
        }
        subscriber.onSubscribe(this);
        drain();
    }

    @Override
    public void request(long n) {
        if (!Operators.validate(n)) {
            return;
        }
        if (this.passThrough) {
            Subscription subscription = this.upstream.get();
            if (subscription != null) {
                subscription.request(n);
            }
            return;
        }
        this.demand.getAndUpdate((current) -> Operators.addCap(current, n));
        drain();
    }

    /**
     * Cancels the subscription to the {@code Flux}, from the subscriber of the whole.
     */
    @Override
    public void cancel() {
        cancelUpstream();
    }

    /**
     * Emits what is due, from one thread at a time: the first element once it is asked
     * for, then the end if it has come, else the rest of the demand, asked of the
     * {@code Flux}, after which its elements pass straight through.
     */
    private void drain() {
        if (this.work.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            Subscriber<? super T> subscriber = this.downstream.get();
            if (subscriber != null && !this.terminated) {
                if (!this.firstEmitted && this.demand.get() > 0) {
                    this.firstEmitted = true;
                    this.demand.decrementAndGet();
                    T element = this.first;
                    if (element != null) {
                        subscriber.onNext(element);
                    }
                }
                if (this.firstEmitted && this.done) {
                    this.terminated = true;
                    Throwable failure = this.error;
                    if (failure != null) {
                        subscriber.onError(failure);
                    }
                    else {
                        subscriber.onComplete();
                    }
                }
                else if (this.firstEmitted) {
                    this.passThrough = true;
                    long rest = this.demand.getAndSet(0);
                    Subscription subscription = this.upstream.get();
                    if (rest > 0 && subscription != null) {
                        subscription.request(rest);
                    }
                }
            }
            missed = this.work.addAndGet(-missed);
        }
        while (missed != 0);
    }

    private void cancelUpstream() {
        Subscription subscription = this.upstream.getAndSet(CANCELLED);
        if (subscription != null && subscription != CANCELLED) {
            subscription.cancel();
        }
    }

}
