package dev.resilience.redrive;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.aop.CallContextCustomizer;
import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.retry.RetryEvent;
import org.jspecify.annotations.Nullable;

/**
 * The calls being re-driven. A re-drive announces its call before it calls the bean's
 * proxy; the re-run is the first call of the dead letter's method that then starts with
 * the same arguments on the re-driving thread, or, on another thread (an {@code @Async}
 * method enters its pipeline on its executor's), with the very argument objects the
 * re-drive read back, of which at least one is not a plain value (a number, boolean,
 * character or enum, which another caller may hold too). This customizer gives the
 * re-run's context a listener and a dead-letter record of its own. So the re-run's
 * outcome (its status, attempts and whether a fallback answered) is known wherever it
 * completes, on this thread or, for an asynchronous method, on another; and when it fails
 * again its letter is kept in the record instead of the store, so it neither adds a
 * second letter beside the one re-driven nor evicts a letter from a full store. Calls of
 * other callers, and the calls the re-run makes itself, are left as they are.
 * Thread-safe; a call that no re-drive announced costs one read of a counter.
 */
public final class RedrivenCalls implements CallContextCustomizer {

    private final AtomicInteger announced = new AtomicInteger();

    private final ThreadLocal<Capture> pending = new ThreadLocal<>();

    private final Set<Capture> unmatched = ConcurrentHashMap.newKeySet();

    private final Set<String> running = ConcurrentHashMap.newKeySet();

    Capture start(DeadLetter deadLetter, @Nullable Object[] arguments) {
        Capture capture = new Capture(deadLetter, List.of(nullSafe(arguments)));
        this.running.add(deadLetter.id());
        this.pending.set(capture);
        this.unmatched.add(capture);
        this.announced.incrementAndGet();
        return capture;
    }

    void end(Capture capture) {
        if (this.pending.get() == capture) {
            this.pending.remove();
        }
        this.unmatched.remove(capture);
        this.announced.decrementAndGet();
        this.running.remove(capture.deadLetter.id());
    }

    /**
     * Tells whether a call with these arguments can be told apart from another caller's
     * on another thread: at least one argument is not a plain value.
     */
    static boolean isDistinctive(@Nullable Object[] arguments) {
        for (Object argument : arguments) {
            if (argument != null && !isPlain(argument)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isPlain(Object argument) {
        return argument instanceof Number || argument instanceof Boolean || argument instanceof Character
                || argument instanceof Enum<?>;
    }

    /**
     * Tells whether a dead letter is being re-driven by this instance now.
     */
    boolean isRunning(String id) {
        return this.running.contains(id);
    }

    @Override
    public CallContext customize(CallContext context) {
        if (this.announced.get() == 0) {
            return context;
        }
        Capture capture = this.pending.get();
        if (capture == null || !capture.isRerun(context, false)) {
            capture = null;
            for (Capture other : this.unmatched) {
                if (other.isRerun(context, true)) {
                    capture = other;
                    break;
                }
            }
            if (capture == null) {
                return context;
            }
        }
        if (!this.unmatched.remove(capture)) {
            return context;
        }
        if (this.pending.get() == capture) {
            this.pending.remove();
        }
        return context.withListener(capture.listening(context.listener())).withDeadLetters(capture.record);
    }

    private static Object[] nullSafe(@Nullable Object[] arguments) {
        Object[] copy = new Object[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            copy[i] = (arguments[i] != null) ? arguments[i] : Capture.NULL;
        }
        return copy;
    }

    /**
     * What one re-run did: its result, and the dead letter it would have written.
     */
    static final class Capture {

        private static final Object NULL = new Object();

        private final DeadLetter deadLetter;

        private final List<Object> arguments;

        private final LetterRecord record = new LetterRecord();

        private volatile @Nullable ExecutionResult<?> result;

        private volatile boolean fallbackAnswered;

        Capture(DeadLetter deadLetter, List<Object> arguments) {
            this.deadLetter = deadLetter;
            this.arguments = arguments;
        }

        /**
         * Returns the re-run's result, once it completed.
         */
        @Nullable ExecutionResult<?> result() {
            return this.result;
        }

        /**
         * Tells whether a fallback, or a last good value, answered the re-run.
         */
        boolean fallbackAnswered() {
            ExecutionResult<?> completed = this.result;
            return (completed != null) ? completed.fallbackUsed() : this.fallbackAnswered;
        }

        /**
         * Returns the dead letter the re-run wrote when it failed again, kept here and
         * not in the store.
         */
        Optional<DeadLetter> letter() {
            return Optional.ofNullable(this.record.letter);
        }

        /**
         * Tells whether a call is the re-run: the same method, and arguments equal to the
         * announced ones; from another thread, the very same objects where they are not
         * plain values, and at least one such.
         */
        private boolean isRerun(CallContext context, boolean elsewhere) {
            if (!this.deadLetter.method().equals(context.method())
                    || context.arguments().size() != this.arguments.size()) {
                return false;
            }
            boolean distinct = false;
            for (int i = 0; i < this.arguments.size(); i++) {
                Object announced = this.arguments.get(i);
                Object given = context.arguments().get(i);
                if ((announced == NULL) ? given != null : !Objects.equals(announced, given)) {
                    return false;
                }
                if (elsewhere && announced != NULL && !isPlain(announced)) {
                    if (announced != given) {
                        return false;
                    }
                    distinct = true;
                }
            }
            return !elsewhere || distinct;
        }

        private ExecutionListener listening(ExecutionListener own) {
            return new ExecutionListener() {

                @Override
                public void onRetry(String name, RetryEvent event) {
                    own.onRetry(name, event);
                }

                @Override
                public void onBudgetRefused(String name) {
                    own.onBudgetRefused(name);
                }

                @Override
                public void onFallback(String name, String fallbackName, boolean success) {
                    if (success) {
                        Capture.this.fallbackAnswered = true;
                    }
                    own.onFallback(name, fallbackName, success);
                }

                @Override
                public void onIdempotency(String name, IdempotencyOutcome outcome) {
                    own.onIdempotency(name, outcome);
                }

                @Override
                public void onDeadLetter(DeadLetter deadLetter) {
                    own.onDeadLetter(deadLetter);
                }

                @Override
                public void onComplete(String name, ExecutionResult<?> result) {
                    Capture.this.result = result;
                    own.onComplete(name, result);
                }

            };
        }

    }

    /**
     * The dead-letter store of one re-run: holds the letter it writes, if it fails again.
     */
    private static final class LetterRecord implements DeadLetterStore {

        private volatile @Nullable DeadLetter letter;

        @Override
        public void write(DeadLetter deadLetter) {
            this.letter = deadLetter;
        }

        @Override
        public List<DeadLetter> list(int limit) {
            if (limit < 0) {
                throw new IllegalArgumentException("limit must not be negative, was " + limit);
            }
            DeadLetter written = this.letter;
            return (written != null && limit > 0) ? List.of(written) : List.of();
        }

        @Override
        public Optional<DeadLetter> find(String id) {
            DeadLetter written = this.letter;
            return (written != null && written.id().equals(id)) ? Optional.of(written) : Optional.empty();
        }

        @Override
        public boolean delete(String id) {
            DeadLetter written = this.letter;
            if (written != null && written.id().equals(id)) {
                this.letter = null;
                return true;
            }
            return false;
        }

        @Override
        public int size() {
            return (this.letter != null) ? 1 : 0;
        }

    }

}
