package dev.resilience.core.retry;

import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * A {@link RandomGenerator} safe for concurrent use without contention: every draw goes
 * to the calling thread's {@link ThreadLocalRandom}.
 */
final class ThreadLocalRandomGenerator implements RandomGenerator {

    static final ThreadLocalRandomGenerator INSTANCE = new ThreadLocalRandomGenerator();

    private ThreadLocalRandomGenerator() {
    }

    @Override
    public long nextLong() {
        return ThreadLocalRandom.current().nextLong();
    }

    @Override
    public long nextLong(long origin, long bound) {
        return ThreadLocalRandom.current().nextLong(origin, bound);
    }

    @Override
    public double nextDouble() {
        return ThreadLocalRandom.current().nextDouble();
    }

    @Override
    public String toString() {
        return "ThreadLocalRandom";
    }

}
