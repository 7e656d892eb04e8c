package dev.resilience.benchmarks.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.redis.RedisIdempotencyStore;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Measures idempotent calls through a {@link ResiliencePipeline} on the
 * {@link RedisIdempotencyStore}: calls with new keys (a claim and a completion, two round
 * trips each) and replays (one claim), from a number of threads for a number of seconds,
 * against a running Redis server; and, as the client's own baseline, plain {@code SET}s
 * through the same template and connection. Compare with {@code redis-benchmark -t set} on the same
 * server and thread count; {@code benchmarks/redis-throughput.sh} runs both.
 *
 * <p>Arguments: {@code --port=6390 --threads=16 --seconds=10}.
 */
public final class RedisIdempotencyThroughput {

    private static final int REPLAYED_KEYS = 1_000;

    private RedisIdempotencyThroughput() {
    }

    /**
     * Runs both measurements and prints calls per second.
     * @param args {@code --port=}, {@code --threads=}, {@code --seconds=}
     * @throws Exception if a measurement fails
     */
    public static void main(String[] args) throws Exception {
        int port = argument(args, "port", 6390);
        int threads = argument(args, "threads", 16);
        int seconds = argument(args, "seconds", 10);
        LettuceConnectionFactory connections = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        connections.afterPropertiesSet();
        connections.start();
        try {
            StringRedisTemplate redis = new StringRedisTemplate(connections);
            RedisIdempotencyStore store = new RedisIdempotencyStore(redis, JsonMapper.builder().build(), "bench:");
            ResiliencePipeline pipeline = ResiliencePipeline.builder("payment")
                .idempotency(IdempotencyPolicy.of("payment", store).withResultType(String.class))
                .build();
            AtomicLong next = new AtomicLong();
            double clientSets = measure("client SET", threads, 2,
                    () -> redis.opsForValue().set("bench:set:" + next.incrementAndGet(), "receipt"));
            clientSets = measure("client SET", threads, seconds,
                    () -> redis.opsForValue().set("bench:set:" + next.incrementAndGet(), "receipt"));
            measure("warm-up", pipeline, threads, 2, () -> "warm-" + next.incrementAndGet());
            double newKeys = measure("new keys", pipeline, threads, seconds, () -> "new-" + next.incrementAndGet());
            for (int i = 0; i < REPLAYED_KEYS; i++) {
                call(pipeline, "replayed-" + i);
            }
            double replays = measure("replays", pipeline, threads, seconds,
                    () -> "replayed-" + (next.incrementAndGet() % REPLAYED_KEYS));
            System.out.printf(Locale.ROOT, "RESULT new_keys_per_s=%.0f replays_per_s=%.0f client_set_per_s=%.0f%n", newKeys,
                    replays, clientSets);
        }
        finally {
            connections.destroy();
        }
    }

    private static double measure(String label, ResiliencePipeline pipeline, int threads, int seconds,
            java.util.function.Supplier<String> keys) throws InterruptedException {
        return measure(label, threads, seconds, () -> call(pipeline, keys.get()));
    }

    private static double measure(String label, int threads, int seconds, Runnable operation)
            throws InterruptedException {
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
        System.out.printf(Locale.ROOT, "%-8s %2d threads: %,.0f calls/s%n", label, threads, perSecond);
        return perSecond;
    }

    private static void call(ResiliencePipeline pipeline, String key) {
        ExecutionResult<String> result = pipeline.execute(CallContext.idempotent(key, "fingerprint"), () -> "receipt");
        if (!result.isSuccess()) {
            throw new IllegalStateException("Call with key " + key + " ended " + result.status(), result.error());
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private static int argument(String[] args, String name, int defaultValue) {
        for (String arg : args) {
            if (arg.startsWith("--" + name + "=")) {
                return Integer.parseInt(arg.substring(name.length() + 3));
            }
        }
        return defaultValue;
    }
}
