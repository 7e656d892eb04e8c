package dev.resilience.redrive;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import org.jspecify.annotations.Nullable;

/**
 * The calls being re-driven, seen by every pipeline as an {@link ExecutionListener}: a
 * dead letter that a re-driven call writes again on the re-driving thread (same method,
 * same arguments) is deleted as soon as it is written, since the original is kept, and
 * the result of a synchronous re-driven call is caught there for its status and attempts.
 * Only the re-driving thread's own call is matched, so another caller's call with equal
 * arguments keeps its letter; an asynchronous re-driven call that ends on another thread
 * keeps the letter it writes beside the original. Thread-safe.
 */
public final class RedrivenCalls implements ExecutionListener {

    private final DeadLetterStore store;

    private final ThreadLocal<Capture> captures = new ThreadLocal<>();

    private final Set<String> running = ConcurrentHashMap.newKeySet();

    /**
     * Creates the calls being re-driven.
     * @param store where the re-driven calls' dead letters are written
     */
    public RedrivenCalls(DeadLetterStore store) {
        this.store = store;
    }

    Capture start(DeadLetter deadLetter) {
        Call call = new Call(deadLetter.method(), deadLetter.arguments());
        this.running.add(deadLetter.id());
        Capture capture = new Capture(deadLetter.id(), deadLetter.name(), call);
        this.captures.set(capture);
        return capture;
    }

    void end(Capture capture) {
        this.captures.remove();
        this.running.remove(capture.id);
    }

    /**
     * Tells whether a dead letter is being re-driven by this instance now.
     */
    boolean isRunning(String id) {
        return this.running.contains(id);
    }

    @Override
    public void onDeadLetter(DeadLetter deadLetter) {
        Capture capture = this.captures.get();
        if (capture != null && capture.call.equals(new Call(deadLetter.method(), deadLetter.arguments()))) {
            this.store.delete(deadLetter.id());
        }
    }

    @Override
    public void onComplete(String name, ExecutionResult<?> result) {
        Capture capture = this.captures.get();
        if (capture != null && capture.name.equals(name)) {
            capture.result = result;
        }
    }

    private record Call(String method, List<String> arguments) {
    }

    /**
     * The result of one re-driven call, when it completed on the re-driving thread.
     */
    static final class Capture {

        private final String id;

        private final String name;

        private final Call call;

        private volatile @Nullable ExecutionResult<?> result;

        Capture(String id, String name, Call call) {
            this.id = id;
            this.name = name;
            this.call = call;
        }

        @Nullable ExecutionResult<?> result() {
            return this.result;
        }

    }

}
