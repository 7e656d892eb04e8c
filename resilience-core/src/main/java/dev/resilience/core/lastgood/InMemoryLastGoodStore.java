package dev.resilience.core.lastgood;

import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

import dev.resilience.core.time.Durations;
import dev.resilience.core.time.TimeSource;

/**
 * A {@link LastGoodStore} in this process's memory: at most {@code maxEntries} values,
 * the oldest stored evicted first, each expiring after its time to live on the store's
 * {@link TimeSource}. Values are kept as the method returned them, so a value the method
 * shares with its callers should be immutable. Thread-safe, with one short lock and no
 * {@code synchronized}.
 */
public final class InMemoryLastGoodStore implements LastGoodStore {

    /** The default bound on the number of values kept. */
    public static final int DEFAULT_MAX_ENTRIES = 10_000;

    private final int maxEntries;

    private final TimeSource time;

    private final ReentrantLock lock = new ReentrantLock();

    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();

    /**
     * Creates a store.
     * @param maxEntries the most values kept; positive
     * @param time the clock that expires values
     * @throws IllegalArgumentException if {@code maxEntries} is not positive
     */
    public InMemoryLastGoodStore(int maxEntries, TimeSource time) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be positive, was " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.time = Objects.requireNonNull(time, "time");
    }

    @Override
    public void put(String key, Object value, Type type, Instant storedAt, Duration ttl) {
        Entry entry = new Entry(value, storedAt, this.time.nanoTime(), Durations.toNanos(ttl));
        this.lock.lock();
        try {
            this.entries.remove(key);
            this.entries.put(key, entry);
            Iterator<Map.Entry<String, Entry>> oldest = this.entries.entrySet().iterator();
            while (this.entries.size() > this.maxEntries) {
                oldest.next();
                oldest.remove();
            }
        }
        finally {
            this.lock.unlock();
        }
    }

    @Override
    public Optional<LastGoodValue> get(String key, Type type) {
        long now = this.time.nanoTime();
        this.lock.lock();
        try {
            Entry entry = this.entries.get(key);
            if (entry == null) {
                return Optional.empty();
            }
            if (now - entry.keptAtNanos >= entry.ttlNanos) {
                this.entries.remove(key);
                return Optional.empty();
            }
            return Optional.of(new LastGoodValue(entry.value, entry.storedAt));
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Returns how many values are kept, expired ones not yet removed included.
     * @return the number of entries
     */
    public int size() {
        this.lock.lock();
        try {
            return this.entries.size();
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Removes every value. For tests, between one and the next. Thread-safe: a value put
     * during the clear is either removed or kept.
     */
    public void clear() {
        this.lock.lock();
        try {
            this.entries.clear();
        }
        finally {
            this.lock.unlock();
        }
    }

    private record Entry(Object value, Instant storedAt, long keptAtNanos, long ttlNanos) {
    }

}
