package dev.resilience.core.idempotency;

import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * An {@link IdempotencyStore} in process memory, bounded and expiring: the default store,
 * for one instance. Its entries are lost on restart and not shared between instances; the
 * Redis store is the one for production.
 *
 * <p>
 * <b>Bound.</b> The store never holds more than {@code maxEntries} entries. When a new
 * key arrives at a full store, expired entries are purged first; if it is still full, the
 * COMPLETED entry that completed longest ago is evicted. The bound thus trades the replay
 * guarantee of the oldest keys for memory: a request repeated after its key was evicted
 * runs again. IN_PROGRESS entries with a live lease are never evicted; when the store is
 * full of them, {@link #claim} throws {@link IdempotencyStoreException}. An expired
 * IN_PROGRESS entry may still be completed by its owner until another call takes the key
 * over or the entry is purged.
 *
 * <p>
 * <b>Cost.</b> Entries live in a {@link ConcurrentHashMap}. A claim that finds a live
 * entry (replay, in progress, mismatch) costs one atomic {@code compute} on its key;
 * {@link #complete} and {@link #release} cost a lookup and a compare-and-set on the key.
 * A claim that creates an entry and a completion also take one short store-wide lock to
 * record the entry in an expiry heap (O(log n)) and, for completions, in a
 * completion-order queue (O(1)); under that lock the expired entries at the head of the
 * heap are purged, each once, so expired entries do not accumulate and purging costs
 * O(log n) amortised per entry. Takeovers, completions and releases leave superseded
 * records in the heap and queue; when either holds more than {@code 2 * maxEntries}
 * records they are swept in O(n), which happens at most once per {@code maxEntries} new
 * records, so O(1) amortised. Thread-safe.
 *
 * <p>
 * <b>Copies.</b> Given a {@link ResultCodec}, the store keeps each result encoded and a
 * claim that finds it returns the {@link EncodedResult}: every replay is a fresh copy,
 * and a change a caller makes to its copy shows in no other replay. The codec also bounds
 * the results' size. Without one (the constructors of {@code resilience-core} alone), the
 * store keeps and replays the result object itself, shared by every replay, and bounds no
 * size.
 */
public final class InMemoryIdempotencyStore implements IdempotencyStore {

    /** The default maximum number of entries. */
    public static final int DEFAULT_MAX_ENTRIES = 100_000;

    private static final long MAX_DURATION_NANOS = Long.MAX_VALUE / 4;

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    private final AtomicInteger reserved = new AtomicInteger();

    private final ReentrantLock indexLock = new ReentrantLock();

    private final PriorityQueue<IndexRecord> byExpiry = new PriorityQueue<>();

    private final ArrayDeque<IndexRecord> byCompletion = new ArrayDeque<>();

    private final TimeSource timeSource;

    private final int maxEntries;

    private final @Nullable ResultCodec codec;

    /**
     * Creates a store holding at most {@value #DEFAULT_MAX_ENTRIES} entries.
     * @param timeSource the source of time for leases and expiry
     */
    public InMemoryIdempotencyStore(TimeSource timeSource) {
        this(timeSource, DEFAULT_MAX_ENTRIES);
    }

    /**
     * Creates a store holding at most {@code maxEntries} entries.
     * @param timeSource the source of time for leases and expiry
     * @param maxEntries the bound; at least 1
     * @throws IllegalArgumentException if {@code maxEntries} is below 1
     */
    public InMemoryIdempotencyStore(TimeSource timeSource, int maxEntries) {
        this(timeSource, maxEntries, null);
    }

    /**
     * Creates a store holding at most {@code maxEntries} entries, each result kept
     * encoded by a codec, so that every replay is a fresh copy.
     * @param timeSource the source of time for leases and expiry
     * @param maxEntries the bound; at least 1
     * @param codec encodes the results, or {@code null} to keep the objects themselves
     * @throws IllegalArgumentException if {@code maxEntries} is below 1
     */
    public InMemoryIdempotencyStore(TimeSource timeSource, int maxEntries, @Nullable ResultCodec codec) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be at least 1, was " + maxEntries);
        }
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
        this.maxEntries = maxEntries;
        this.codec = codec;
    }

    /**
     * {@inheritDoc}
     * @throws IdempotencyStoreException when the key is new and the store is full of
     * IN_PROGRESS entries with live leases
     * @throws IllegalArgumentException if {@code lease} is not positive
     */
    @Override
    public ClaimResult claim(String key, String fingerprint, Duration lease) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(fingerprint, "fingerprint");
        long leaseNanos = positiveNanos(lease, "lease");
        String token = new UUID(ThreadLocalRandom.current().nextLong(), ThreadLocalRandom.current().nextLong())
            .toString();
        while (true) {
            long now = this.timeSource.nanoTime();
            Entry entry = this.entries.compute(key, (k, current) -> {
                if (current != null && current.isLive(now)) {
                    return current;
                }
                if (current == null && !reserveSlot()) {
                    return null;
                }
                return new Entry(fingerprint, token, false, null, now + leaseNanos);
            });
            if (entry == null) {
                if (!makeRoom(now)) {
                    throw new IdempotencyStoreException("Idempotency store is full: all " + this.maxEntries
                            + " entries are in progress with a live lease");
                }
            }
            else if (entry.ownerToken.equals(token)) {
                index(key, entry, now);
                return new ClaimResult.Acquired(token);
            }
            else {
                return outcome(entry, fingerprint, now);
            }
        }
    }

    /**
     * {@inheritDoc}
     * @throws IllegalArgumentException if {@code ttl} is not positive
     */
    @Override
    public boolean complete(String key, String ownerToken, @Nullable Object value, Duration ttl) {
        return complete(key, ownerToken, value, Object.class, ttl);
    }

    /**
     * {@inheritDoc}
     * <p>
     * With a codec, the value is encoded for its declared type before the entry changes;
     * a {@link NotReplayableResult} is kept as it is.
     * @throws IdempotencyResultNotStorableException when the codec cannot encode the
     * value or it is too large, with nothing changed
     * @throws IllegalArgumentException if {@code ttl} is not positive
     */
    @Override
    public boolean complete(String key, String ownerToken, @Nullable Object value, Type type, Duration ttl) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ownerToken, "ownerToken");
        Objects.requireNonNull(type, "type");
        long ttlNanos = positiveNanos(ttl, "ttl");
        Entry current = this.entries.get(key);
        if (current == null || !current.isInProgressOwnedBy(ownerToken)) {
            return false;
        }
        Object stored = (this.codec != null && !(value instanceof NotReplayableResult)) ? this.codec.encode(value, type)
                : value;
        long now = this.timeSource.nanoTime();
        Entry completed = new Entry(current.fingerprint, ownerToken, true, stored, now + ttlNanos);
        if (!this.entries.replace(key, current, completed)) {
            return false;
        }
        index(key, completed, now);
        return true;
    }

    @Override
    public boolean release(String key, String ownerToken) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ownerToken, "ownerToken");
        Entry current = this.entries.get(key);
        return current != null && current.isInProgressOwnedBy(ownerToken) && remove(key, current);
    }

    /**
     * Returns the number of entries held, live or expired but not yet purged.
     * @return the number of entries, never above {@code maxEntries}
     */
    public int size() {
        return this.entries.size();
    }

    /**
     * Removes every entry, COMPLETED and IN_PROGRESS alike, so every key executes again.
     * For tests, between one and the next. Thread-safe and safe while calls run: a call
     * that claimed its key before the clear runs on, and its completion or release then
     * finds no entry of its own and answers {@code false}, as after a lease that expired;
     * its caller still gets the result, which is simply not stored. A key claimed during
     * the clear is either removed or kept.
     */
    public void clear() {
        this.indexLock.lock();
        try {
            this.entries.forEach(this::remove);
            this.byExpiry.clear();
            this.byCompletion.clear();
        }
        finally {
            this.indexLock.unlock();
        }
    }

    private ClaimResult outcome(Entry entry, String fingerprint, long now) {
        if (!entry.fingerprint.equals(fingerprint)) {
            return new ClaimResult.Mismatch();
        }
        if (entry.completed) {
            return new ClaimResult.Completed(entry.value);
        }
        Instant leaseExpiresAt = this.timeSource.now().plusNanos(entry.expiresAtNanos - now);
        return new ClaimResult.InProgress(leaseExpiresAt);
    }

    private boolean reserveSlot() {
        int current;
        do {
            current = this.reserved.get();
            if (current >= this.maxEntries) {
                return false;
            }
        }
        while (!this.reserved.compareAndSet(current, current + 1));
        return true;
    }

    private boolean remove(String key, Entry entry) {
        if (this.entries.remove(key, entry)) {
            this.reserved.decrementAndGet();
            return true;
        }
        return false;
    }

    private void index(String key, Entry entry, long now) {
        IndexRecord record = new IndexRecord(key, entry);
        this.indexLock.lock();
        try {
            this.byExpiry.add(record);
            if (entry.completed) {
                this.byCompletion.addLast(record);
            }
            purgeExpired(now);
            if (this.byExpiry.size() > 2L * this.maxEntries) {
                this.byExpiry.removeIf(this::isSuperseded);
            }
            if (this.byCompletion.size() > 2L * this.maxEntries) {
                this.byCompletion.removeIf(this::isSuperseded);
            }
        }
        finally {
            this.indexLock.unlock();
        }
    }

    private boolean makeRoom(long now) {
        this.indexLock.lock();
        try {
            if (purgeExpired(now) > 0 || this.reserved.get() < this.maxEntries) {
                return true;
            }
            IndexRecord oldest;
            while ((oldest = this.byCompletion.pollFirst()) != null) {
                if (remove(oldest.key, oldest.entry)) {
                    return true;
                }
            }
            return false;
        }
        finally {
            this.indexLock.unlock();
        }
    }

    private int purgeExpired(long now) {
        int purged = 0;
        IndexRecord head;
        while ((head = this.byExpiry.peek()) != null && !head.entry.isLive(now)) {
            this.byExpiry.poll();
            if (remove(head.key, head.entry)) {
                purged++;
            }
        }
        return purged;
    }

    private boolean isSuperseded(IndexRecord record) {
        return this.entries.get(record.key) != record.entry;
    }

    private static long positiveNanos(Duration duration, String name) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + duration);
        }
        try {
            return Math.min(duration.toNanos(), MAX_DURATION_NANOS);
        }
        catch (ArithmeticException ex) {
            return MAX_DURATION_NANOS;
        }
    }

    /**
     * One state of a key. Equality is identity, on which the map's conditional replace
     * and remove rely: a record removes or replaces only the very entry it was made for.
     */
    private static final class Entry {

        final String fingerprint;

        final String ownerToken;

        final boolean completed;

        final @Nullable Object value;

        final long expiresAtNanos;

        Entry(String fingerprint, String ownerToken, boolean completed, @Nullable Object value, long expiresAtNanos) {
            this.fingerprint = fingerprint;
            this.ownerToken = ownerToken;
            this.completed = completed;
            this.value = value;
            this.expiresAtNanos = expiresAtNanos;
        }

        boolean isLive(long now) {
            return this.expiresAtNanos - now > 0;
        }

        boolean isInProgressOwnedBy(String token) {
            return !this.completed && this.ownerToken.equals(token);
        }

    }

    private record IndexRecord(String key, Entry entry) implements Comparable<IndexRecord> {

        @Override
        public int compareTo(IndexRecord other) {
            return Long.signum(this.entry.expiresAtNanos - other.entry.expiresAtNanos);
        }
    }

}
