package dev.resilience.core.deadletter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

import dev.resilience.core.time.Durations;
import dev.resilience.core.time.TimeSource;

/**
 * A {@link DeadLetterStore} in process memory, holding at most {@code capacity} dead
 * letters for at most {@code ttl} each, and evicting the oldest beyond the capacity. Dead
 * letters are lost on restart; the Redis store keeps them.
 *
 * <p>
 * One lock guards a {@link LinkedHashMap} in write order, which is also the order of
 * expiry: every operation first drops the expired dead letters at its head, each dead
 * letter once, so that work is O(1) amortized and at most O(capacity); then
 * {@link #write}, {@link #find}, {@link #delete} and {@link #size} are O(1),
 * {@link #list} is O(capacity); a {@link #claim} is O(claims held), and a claim goes with
 * its letter when the letter is deleted, evicted or expired. Dead letters are written on
 * failed calls only, so the lock is not on the hot path. Thread-safe.
 */
public final class InMemoryDeadLetterStore implements DeadLetterStore {

    /** The default capacity. */
    public static final int DEFAULT_CAPACITY = 10_000;

    /** The default of how long a dead letter is kept: 7 days. */
    public static final Duration DEFAULT_TTL = Duration.ofDays(7);

    private final ReentrantLock lock = new ReentrantLock();

    private final LinkedHashMap<String, Entry> deadLetters = new LinkedHashMap<>();

    private final Map<String, Hold> claims = new HashMap<>();

    private final int capacity;

    private final long ttlNanos;

    private final TimeSource time;

    /**
     * Creates a store holding at most {@value #DEFAULT_CAPACITY} dead letters for 7 days.
     */
    public InMemoryDeadLetterStore() {
        this(DEFAULT_CAPACITY);
    }

    /**
     * Creates a store holding at most {@code capacity} dead letters for 7 days.
     * @param capacity the bound; at least 1
     * @throws IllegalArgumentException if {@code capacity} is below 1
     */
    public InMemoryDeadLetterStore(int capacity) {
        this(capacity, DEFAULT_TTL, TimeSource.system());
    }

    /**
     * Creates a store holding at most {@code capacity} dead letters for at most
     * {@code ttl}.
     * @param capacity the bound; at least 1
     * @param ttl how long a dead letter is kept after it was written; positive
     * @param time the clock of the expiry
     * @throws IllegalArgumentException if {@code capacity} is below 1 or {@code ttl} is
     * not positive
     */
    public InMemoryDeadLetterStore(int capacity, Duration ttl, TimeSource time) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive, was " + ttl);
        }
        this.capacity = capacity;
        this.ttlNanos = Durations.toNanos(ttl);
        this.time = Objects.requireNonNull(time, "time");
    }

    @Override
    public void write(DeadLetter deadLetter) {
        this.lock.lock();
        try {
            long now = this.time.nanoTime();
            expire(now);
            this.deadLetters.remove(deadLetter.id());
            this.deadLetters.put(deadLetter.id(), new Entry(deadLetter, now));
            if (this.deadLetters.size() > this.capacity) {
                Iterator<Map.Entry<String, Entry>> oldest = this.deadLetters.entrySet().iterator();
                this.claims.remove(oldest.next().getKey());
                oldest.remove();
            }
        }
        finally {
            this.lock.unlock();
        }
    }

    @Override
    public List<DeadLetter> list(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, was " + limit);
        }
        List<DeadLetter> oldestFirst = new ArrayList<>();
        this.lock.lock();
        try {
            expire(this.time.nanoTime());
            for (Entry entry : this.deadLetters.values()) {
                oldestFirst.add(entry.deadLetter());
            }
        }
        finally {
            this.lock.unlock();
        }
        int count = Math.min(limit, oldestFirst.size());
        List<DeadLetter> newestFirst = new ArrayList<>(count);
        for (int i = oldestFirst.size() - 1; newestFirst.size() < count; i--) {
            newestFirst.add(oldestFirst.get(i));
        }
        return List.copyOf(newestFirst);
    }

    @Override
    public Optional<DeadLetter> find(String id) {
        this.lock.lock();
        try {
            expire(this.time.nanoTime());
            Entry entry = this.deadLetters.get(id);
            return Optional.ofNullable((entry != null) ? entry.deadLetter() : null);
        }
        finally {
            this.lock.unlock();
        }
    }

    @Override
    public boolean delete(String id) {
        this.lock.lock();
        try {
            expire(this.time.nanoTime());
            this.claims.remove(id);
            return this.deadLetters.remove(id) != null;
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * The letter stays stored while claimed; the claim is kept beside it, in memory.
     */
    @Override
    public Optional<DeadLetterClaim> claim(String id, Duration lease) {
        long leaseNanos = Durations.toNanos(lease);
        if (leaseNanos <= 0) {
            throw new IllegalArgumentException("lease must be positive, was " + lease);
        }
        this.lock.lock();
        try {
            long now = this.time.nanoTime();
            expire(now);
            this.claims.values().removeIf((hold) -> now - hold.expiresAt() >= 0);
            Entry entry = this.deadLetters.get(id);
            if (entry == null || this.claims.containsKey(id)) {
                return Optional.empty();
            }
            Hold hold = new Hold(now + leaseNanos);
            this.claims.put(id, hold);
            return Optional.of(new MemoryClaim(entry.deadLetter(), hold));
        }
        finally {
            this.lock.unlock();
        }
    }

    @Override
    public int size() {
        this.lock.lock();
        try {
            expire(this.time.nanoTime());
            return this.deadLetters.size();
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Removes every dead letter and every claim. For tests, between one and the next.
     * Thread-safe: a letter written during the clear is either removed or kept whole; a
     * re-drive that holds a claim from before it runs on, and completing that claim then
     * finds no letter and answers {@code false}.
     */
    public void clear() {
        this.lock.lock();
        try {
            this.deadLetters.clear();
            this.claims.clear();
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Drops the expired dead letters, all at the head of the write order. Under the lock.
     */
    private void expire(long now) {
        Iterator<Entry> oldest = this.deadLetters.values().iterator();
        while (oldest.hasNext()) {
            Entry entry = oldest.next();
            if (now - entry.writtenAt() < this.ttlNanos) {
                return;
            }
            this.claims.remove(entry.deadLetter().id());
            oldest.remove();
        }
    }

    private record Entry(DeadLetter deadLetter, long writtenAt) {
    }

    /**
     * One claim of a letter, compared by identity, so that a claim that ran out never
     * ends the claim taken after it.
     */
    private static final class Hold {

        private final long expiresAt;

        Hold(long expiresAt) {
            this.expiresAt = expiresAt;
        }

        long expiresAt() {
            return this.expiresAt;
        }

    }

    private final class MemoryClaim implements DeadLetterClaim {

        private final DeadLetter deadLetter;

        private final Hold hold;

        MemoryClaim(DeadLetter deadLetter, Hold hold) {
            this.deadLetter = deadLetter;
            this.hold = hold;
        }

        @Override
        public DeadLetter deadLetter() {
            return this.deadLetter;
        }

        @Override
        public boolean complete() {
            InMemoryDeadLetterStore.this.lock.lock();
            try {
                expire(InMemoryDeadLetterStore.this.time.nanoTime());
                InMemoryDeadLetterStore.this.claims.remove(this.deadLetter.id());
                return InMemoryDeadLetterStore.this.deadLetters.remove(this.deadLetter.id()) != null;
            }
            finally {
                InMemoryDeadLetterStore.this.lock.unlock();
            }
        }

        @Override
        public void release() {
            InMemoryDeadLetterStore.this.lock.lock();
            try {
                InMemoryDeadLetterStore.this.claims.remove(this.deadLetter.id(), this.hold);
            }
            finally {
                InMemoryDeadLetterStore.this.lock.unlock();
            }
        }

    }

}
