package dev.resilience.core;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An action that throws the given errors on its first calls, then returns a value.
 */
final class FlakyAction implements Callable<String> {

    private final List<Exception> failures;

    private final AtomicInteger calls = new AtomicInteger();

    private FlakyAction(List<Exception> failures) {
        this.failures = failures;
    }

    static FlakyAction failing(Exception... failures) {
        return new FlakyAction(List.of(failures));
    }

    @Override
    public String call() throws Exception {
        int call = this.calls.incrementAndGet();
        if (call <= this.failures.size()) {
            throw this.failures.get(call - 1);
        }
        return "ok-" + call;
    }

    int calls() {
        return this.calls.get();
    }

}
