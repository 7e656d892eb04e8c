package dev.resilience.benchmarks;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;

/**
 * The least subscriber that takes a {@code Mono}'s value: it requests everything and
 * keeps the value, or the error. Every path {@link MonoBenchmark} measures signals on the
 * subscribing thread, so the value is there once {@code subscribe} returns.
 */
final class ValueTaker implements CoreSubscriber<Object> {

    private @Nullable Object value;

    private @Nullable Throwable error;

    @Override
    public void onSubscribe(Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(Object value) {
        this.value = value;
    }

    @Override
    public void onError(Throwable error) {
        this.error = error;
    }

    @Override
    public void onComplete() {
    }

    /**
     * Returns the value the {@code Mono} emitted before {@code subscribe} returned.
     * @return the value
     * @throws IllegalStateException when it failed, or had not emitted yet: the
     * measurement would not be that of a synchronous success
     */
    Object value() {
        Object taken = this.value;
        if (taken == null) {
            throw new IllegalStateException("The Mono emitted no value on the subscribing thread", this.error);
        }
        return taken;
    }

}
