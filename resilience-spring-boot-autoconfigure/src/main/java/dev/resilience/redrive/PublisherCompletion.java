package dev.resilience.redrive;

import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * The end of the stream a re-driven method returned as a publisher: it subscribes, asks
 * for every element, and completes when the stream completes, or exceptionally with its
 * error, so that a {@code Flux} is run to its end, not to its first element. Cancelling
 * it cancels the subscription. Loaded only for a method returning a publisher, so that
 * Reactive Streams stays optional.
 */
final class PublisherCompletion extends CompletableFuture<@Nullable Object> implements Subscriber<Object> {

    private volatile @Nullable Subscription subscription;

    private PublisherCompletion() {
    }

    /**
     * Subscribes to a publisher.
     * @param publisher the publisher
     * @return the future of its end, completed with {@code null}
     */
    static CompletableFuture<@Nullable Object> of(Publisher<?> publisher) {
        PublisherCompletion completion = new PublisherCompletion();
        publisher.subscribe(completion);
        return completion;
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
    public void onNext(Object element) {
    }

    @Override
    public void onError(Throwable error) {
        completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        complete(null);
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
