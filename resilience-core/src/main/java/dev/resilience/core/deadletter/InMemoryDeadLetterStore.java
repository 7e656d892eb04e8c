package dev.resilience.core.deadletter;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link DeadLetterStore} in process memory, holding at most {@code capacity} dead letters
 * and evicting the oldest beyond it. Dead letters are lost on restart; the Redis store keeps
 * them.
 *
 * <p>One lock guards a {@link LinkedHashMap} in write order: {@link #write}, {@link #find},
 * {@link #delete} and {@link #size} are O(1), {@link #list} is O(capacity). Dead letters are
 * written on failed calls only, so the lock is not on the hot path. Thread-safe.
 */
public final class InMemoryDeadLetterStore implements DeadLetterStore {

    /** The default capacity. */
    public static final int DEFAULT_CAPACITY = 10_000;

    private final ReentrantLock lock = new ReentrantLock();

    private final LinkedHashMap<String, DeadLetter> deadLetters = new LinkedHashMap<>();

    private final int capacity;

    /**
     * Creates a store holding at most {@value #DEFAULT_CAPACITY} dead letters.
     */
    public InMemoryDeadLetterStore() {
        this(DEFAULT_CAPACITY);
    }

    /**
     * Creates a store holding at most {@code capacity} dead letters.
     * @param capacity the bound; at least 1
     * @throws IllegalArgumentException if {@code capacity} is below 1
     */
    public InMemoryDeadLetterStore(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    @Override
    public void write(DeadLetter deadLetter) {
        this.lock.lock();
        try {
            this.deadLetters.remove(deadLetter.id());
            this.deadLetters.put(deadLetter.id(), deadLetter);
            if (this.deadLetters.size() > this.capacity) {
                Iterator<Map.Entry<String, DeadLetter>> oldest = this.deadLetters.entrySet().iterator();
                oldest.next();
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
        List<DeadLetter> oldestFirst;
        this.lock.lock();
        try {
            oldestFirst = new ArrayList<>(this.deadLetters.values());
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
            return Optional.ofNullable(this.deadLetters.get(id));
        }
        finally {
            this.lock.unlock();
        }
    }

    @Override
    public boolean delete(String id) {
        this.lock.lock();
        try {
            return this.deadLetters.remove(id) != null;
        }
        finally {
            this.lock.unlock();
        }
    }

    @Override
    public int size() {
        this.lock.lock();
        try {
            return this.deadLetters.size();
        }
        finally {
            this.lock.unlock();
        }
    }
}
