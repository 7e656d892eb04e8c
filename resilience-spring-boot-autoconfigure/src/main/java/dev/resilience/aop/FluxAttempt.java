package dev.resilience.aop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * One subscription to the {@code Flux} an attempt or a fallback returned, in two halves
 * ({@code docs/design/reactive.md}). Until its first signal it is the engine's stage: it
 * asks for one element, and its {@link #firstSignal()} completes with that element, with
 * {@code null} when the {@code Flux} completes empty, or exceptionally with an error that
 * came before any element; cancelling that stage cancels the subscription. Once the call
 * has chosen it, it is the {@link Publisher} of the rest for the call's subscriber: the
 * held first element is emitted when the subscriber asks for it, then the subscriber's
 * further demand goes straight to the upstream subscription and the elements, the
 * completion and any later error come straight back. At most the first element is held,
 * and a completion or error that came while it was held; an element no subscriber will
 * see (the held one when the attempt is cancelled, one beyond the demand) goes to the
 * discard hook of the subscriber's context, as Reactor's operators do, and an error no
 * subscriber will hear (after a cancellation) to its hook of dropped errors. The
 * subscriber's context is the context of the subscription. Thread-safe: signals to the
 * subscriber are serialized by a work counter, without a lock.
 */
final class FluxAttempt implements CoreSubscriber<Object>, Subscription, Publisher<Object> {

    private static final Subscription CANCELLED = new Subscription() {

        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }

    };

    private final Context context;

    private final CompletableFuture<@Nullable Object> firstSignal = new CompletableFuture<>();

    private final AtomicReference<@Nullable Subscription> upstream = new AtomicReference<>();

    private final AtomicReference<@Nullable Subscriber<? super Object>> downstream = new AtomicReference<>();

    private final AtomicLong requested = new AtomicLong();

    private final AtomicInteger work = new AtomicInteger();

    /**
     * Whether the upstream has signalled anything; read and written on its signals only.
     */
    private boolean signalled;

    private final AtomicReference<@Nullable Object> first = new AtomicReference<>();

    private volatile boolean firstDelivered;

    private volatile boolean done;

    private volatile @Nullable Throwable error;

    private volatile boolean cancelled;

    /** Whether the upstream has ended, which leaves nothing to cancel. */
    private volatile boolean ended;

    /**
     * The failure of a request for no or negative demand, signalled by {@link #drain()}
     * unless the subscriber was told of the end already.
     */
    private volatile @Nullable IllegalArgumentException badRequest;

    /**
     * Whether the subscriber was told of the end; read and written in {@link #drain()}.
     */
    private boolean terminated;

    FluxAttempt(Context context) {
        this.context = context;
        this.firstSignal.whenComplete((value, failure) -> {
            if (this.firstSignal.isCancelled()) {
                cancel();
            }
        });
    }

    /**
     * Returns the stage of the first signal: cancelling it cancels the subscription.
     * @return the stage of the first element, {@code null} for an empty completion
     */
    CompletableFuture<@Nullable Object> firstSignal() {
        return this.firstSignal;
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
    public void onNext(Object element) {
        if (!this.signalled) {
            this.signalled = true;
            this.first.set(element);
            if (this.cancelled) {
                discard(this.first.getAndSet(null));
            }
            this.firstSignal.complete(element);
            return;
        }
        Subscriber<? super Object> subscriber = this.downstream.get();
        if (subscriber != null && !this.cancelled && this.badRequest == null) {
            subscriber.onNext(element);
        }
        else {
            discard(element);
        }
    }

    @Override
    public void onError(Throwable failure) {
        this.ended = true;
        if (!this.signalled) {
            this.signalled = true;
            if (!this.firstSignal.completeExceptionally(failure)) {
                Operators.onErrorDropped(failure, this.context);
            }
            return;
        }
        if (this.cancelled || this.badRequest != null) {
            Operators.onErrorDropped(failure, this.context);
            return;
        }
        this.error = failure;
        this.done = true;
        drain();
    }

    @Override
    public void onComplete() {
        this.ended = true;
        if (!this.signalled) {
            this.signalled = true;
            this.firstSignal.complete(null);
            return;
        }
        this.done = true;
        drain();
    }

    /**
     * Takes the call's subscriber, the only one this attempt serves.
     * @param subscriber the subscriber of the rest of the stream
     */
    @Override
    public void subscribe(Subscriber<? super Object> subscriber) {
        if (!this.downstream.compareAndSet(null, subscriber)) {
            subscriber.onSubscribe(CANCELLED);
            subscriber.onError(new IllegalStateException("The rest of an attempt's Flux has one subscriber only"));
            return;
        }
        subscriber.onSubscribe(this);
        drain();
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            if (this.badRequest == null) {
                this.badRequest = new IllegalArgumentException("Demand must be positive, not " + n);
            }
            stopUpstream();
            drain();
            return;
        }
        this.requested.getAndUpdate((current) -> (current + n < 0) ? Long.MAX_VALUE : current + n);
        drain();
    }

    /**
     * Cancels the subscription, before or after the first element, unless the upstream
     * has ended; the stage of the first signal, if still pending, ends cancelled.
     */
    @Override
    public void cancel() {
        if (this.cancelled) {
            return;
        }
        this.cancelled = true;
        discard(this.first.getAndSet(null));
        stopUpstream();
        this.firstSignal.cancel(false);
    }

    /**
     * Hands an element no subscriber will see to the discard hook of the subscriber's
     * context, which releases a pooled buffer.
     */
    private void discard(@Nullable Object element) {
        if (element != null) {
            Operators.onDiscard(element, this.context);
        }
    }

    private void stopUpstream() {
        Subscription subscription = this.upstream.getAndSet(CANCELLED);
        if (subscription != null && !this.ended) {
            subscription.cancel();
        }
    }

    /**
     * Emits the held first element once the subscriber asks for it, then the held end, or
     * hands the subscriber's further demand to the upstream subscription; a request for
     * no demand fails the subscriber instead, unless it was told of the end already.
     */
    private void drain() {
        if (this.work.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            Subscriber<? super Object> subscriber = this.downstream.get();
            if (subscriber != null && !this.cancelled && !this.terminated) {
                deliver(subscriber);
            }
            missed = this.work.addAndGet(-missed);
        }
        while (missed != 0);
    }

    private void deliver(Subscriber<? super Object> subscriber) {
        IllegalArgumentException refused = this.badRequest;
        if (refused != null) {
            this.terminated = true;
            discard(this.first.getAndSet(null));
            subscriber.onError(refused);
            return;
        }
        if (!this.firstDelivered && this.requested.get() > 0) {
            Object element = this.first.getAndSet(null);
            if (element != null) {
                this.requested.decrementAndGet();
                subscriber.onNext(element);
                this.firstDelivered = true;
            }
        }
        if (!this.firstDelivered || this.cancelled) {
            return;
        }
        if (this.done) {
            this.terminated = true;
            Throwable failure = this.error;
            if (failure != null) {
                subscriber.onError(failure);
            }
            else {
                subscriber.onComplete();
            }
            return;
        }
        long more = this.requested.getAndSet(0);
        Subscription subscription = this.upstream.get();
        if (more > 0 && subscription != null) {
            subscription.request(more);
        }
    }

}
