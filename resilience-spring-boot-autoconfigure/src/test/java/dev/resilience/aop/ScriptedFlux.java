package dev.resilience.aop;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import reactor.core.publisher.Flux;

/**
 * A {@code Flux} for the methods of the tests, whose n-th subscription does what the test
 * scripted ({@code a, b, c} when nothing is), and which counts the method's invocations,
 * its subscriptions and cancellations, and records the demand each subscription got.
 */
class ScriptedFlux {

    private static final IntFunction<Flux<String>> ABC = (subscription) -> Flux.just("a", "b", "c");

    private final AtomicInteger invocations = new AtomicInteger();

    private final AtomicInteger subscriptions = new AtomicInteger();

    private final AtomicInteger cancellations = new AtomicInteger();

    private final List<Long> requests = new CopyOnWriteArrayList<>();

    private volatile IntFunction<Flux<String>> script = ABC;

    void script(IntFunction<Flux<String>> script) {
        this.script = script;
    }

    void reset() {
        this.invocations.set(0);
        this.subscriptions.set(0);
        this.cancellations.set(0);
        this.requests.clear();
        this.script = ABC;
    }

    /**
     * Returns the {@code Flux} of one invocation of a method, which runs the script at
     * each subscription.
     * @return the cold {@code Flux}
     */
    Flux<String> invoked() {
        this.invocations.incrementAndGet();
        return Flux.defer(() -> this.script.apply(this.subscriptions.incrementAndGet()))
            .doOnRequest(this.requests::add)
            .doOnCancel(this.cancellations::incrementAndGet);
    }

    int invocations() {
        return this.invocations.get();
    }

    int subscriptions() {
        return this.subscriptions.get();
    }

    int cancellations() {
        return this.cancellations.get();
    }

    List<Long> requests() {
        return this.requests;
    }

}
