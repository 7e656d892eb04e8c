package dev.resilience.event;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import dev.resilience.core.circuitbreaker.CircuitBreakerTransition;

/**
 * The bounded recent events of one breaker, newest first. Consecutive rejections share
 * one entry whose count grows, so rejection entries are never adjacent: a flood of
 * rejections takes one slot and at least half of the slots hold transitions once the
 * buffer is full. Lock-free: the entries are an immutable list swapped by
 * compare-and-set, and a rejection joining the newest run only increments that run's
 * counter.
 */
final class EventBuffer {

    private final int capacity;

    private final AtomicReference<List<Entry>> entries = new AtomicReference<>(List.of());

    EventBuffer(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("Event buffer capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    void onTransition(CircuitBreakerTransition transition) {
        Entry entry = new TransitionEntry(transition);
        List<Entry> current;
        do {
            current = this.entries.get();
        }
        while (!this.entries.compareAndSet(current, prepend(entry, current)));
    }

    void onNotPermitted(Instant at) {
        while (true) {
            List<Entry> current = this.entries.get();
            if (!current.isEmpty() && current.get(0) instanceof RejectionRun run) {
                run.add(at);
                return;
            }
            if (this.entries.compareAndSet(current, prepend(new RejectionRun(at), current))) {
                return;
            }
        }
    }

    List<CircuitBreakerEvent> snapshot() {
        List<Entry> current = this.entries.get();
        List<CircuitBreakerEvent> events = new ArrayList<>(current.size());
        current.forEach((entry) -> events.add(entry.toEvent()));
        return Collections.unmodifiableList(events);
    }

    private List<Entry> prepend(Entry entry, List<Entry> current) {
        List<Entry> next = new ArrayList<>(Math.min(current.size() + 1, this.capacity));
        next.add(entry);
        next.addAll(current.subList(0, Math.min(current.size(), this.capacity - 1)));
        return Collections.unmodifiableList(next);
    }

    private interface Entry {

        CircuitBreakerEvent toEvent();

    }

    private record TransitionEntry(CircuitBreakerTransition transition) implements Entry {

        @Override
        public CircuitBreakerEvent toEvent() {
            return new CircuitBreakerEvent(CircuitBreakerEvent.Type.STATE_TRANSITION, this.transition.from(),
                    this.transition.to(), this.transition.at(), null, 1);
        }
    }

    private static final class RejectionRun implements Entry {

        private final Instant since;

        private final AtomicReference<Instant> latest;

        private final LongAdder count = new LongAdder();

        RejectionRun(Instant at) {
            this.since = at;
            this.latest = new AtomicReference<>(at);
            this.count.increment();
        }

        void add(Instant at) {
            this.count.increment();
            this.latest.accumulateAndGet(at, (current, candidate) -> candidate.isAfter(current) ? candidate : current);
        }

        @Override
        public CircuitBreakerEvent toEvent() {
            return new CircuitBreakerEvent(CircuitBreakerEvent.Type.NOT_PERMITTED, null, null, this.latest.get(),
                    this.since, this.count.sum());
        }

    }

}
