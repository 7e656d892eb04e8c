package dev.resilience.benchmarks.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the Redis throughput runs share: an operation run by a number of threads for a
 * number of seconds and counted, the median of the rounds, and the {@code --name=value}
 * options.
 */
final class Throughput {

    private Throughput() {
    }

    /**
     * Runs an operation on threads that start together for a number of seconds, and
     * prints its rate.
     * @param label what the printed line names
     * @param threads the threads
     * @param seconds how long each runs
     * @param operation one call
     * @return the calls per second of all threads together
     * @throws InterruptedException if interrupted while the threads run
     */
    static double measure(String label, int threads, int seconds, Runnable operation) throws InterruptedException {
        LongAdder calls = new LongAdder();
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread worker = new Thread(() -> {
                awaitQuietly(start);
                while (System.nanoTime() < end) {
                    operation.run();
                    calls.increment();
                }
            });
            workers.add(worker);
            worker.start();
        }
        long began = System.nanoTime();
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        double perSecond = calls.sum() / ((System.nanoTime() - began) / 1e9);
        System.out.printf(Locale.ROOT, "%-24s %,10.0f calls/s (%d threads)%n", label, perSecond, threads);
        return perSecond;
    }

    /**
     * Returns the median of the values.
     * @param values one per round, at least one
     * @return the median
     */
    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /**
     * Returns the value of a {@code --name=value} option.
     * @param args the command line
     * @param name the option's name
     * @param defaultValue its value when absent
     * @return the value
     */
    static String argument(String[] args, String name, String defaultValue) {
        for (String arg : args) {
            if (arg.startsWith("--" + name + "=")) {
                return arg.substring(name.length() + 3);
            }
        }
        return defaultValue;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

}
