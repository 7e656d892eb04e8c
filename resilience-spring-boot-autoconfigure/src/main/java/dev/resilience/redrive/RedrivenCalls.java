package dev.resilience.redrive;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import org.jspecify.annotations.Nullable;

/**
 * The calls being re-driven, seen by every pipeline as an {@link ExecutionListener}: a
 * dead letter that a re-driven call writes again (same method, same arguments) is deleted
 * as soon as it is written, since the original is kept; the result of a synchronous
 * re-driven call is caught on the re-driving thread for its status and attempts.
 * Thread-safe.
 */
public final class RedrivenCalls implements ExecutionListener {

    private final DeadLetterStore store;

    private final Map<Call, Integer> inFlight = new ConcurrentHashMap<>();

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
        this.inFlight.merge(call, 1, Integer::sum);
        this.running.add(deadLetter.id());
        Capture capture = new Capture(deadLetter.id(), deadLetter.name(), call);
        this.captures.set(capture);
        return capture;
    }

    void end(Capture capture) {
        this.captures.remove();
        this.running.remove(capture.id);
        this.inFlight.computeIfPresent(capture.call, (call, count) -> (count > 1) ? count - 1 : null);
    }

    /**
     * Tells whether a dead letter is being re-driven by this instance now.
     */
    boolean isRunning(String id) {
        return this.running.contains(id);
    }

    @Override
    public void onDeadLetter(DeadLetter deadLetter) {
        if (this.inFlight.containsKey(new Call(deadLetter.method(), deadLetter.arguments()))) {
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
