package dev.resilience.benchmarks.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.redis.RedisIdempotencyStore;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.types.Expiration;

/**
 * Measures idempotent calls through a {@link ResiliencePipeline} on the
 * {@link RedisIdempotencyStore} against a running Redis server: calls with new keys (a
 * claim and a completion, two round trips each) and replays (one claim), from a number of
 * threads. Each round also measures the two baselines on the same server, just before:
 * the {@code redis-benchmark} tool's {@code SET} with as many connections as there are
 * threads, and plain {@code SET}s of 1,000 keys through the same template and connection
 * as the store. Every ratio is taken within a round and the median over the rounds is
 * reported, so a drift of the machine between rounds moves a baseline and its measurement
 * together. Each operation first runs once, unmeasured, as long as a measurement, to warm
 * the JIT up.
 *
 * <p>
 * Each round also measures the floor of any idempotency store on this client, through the
 * same template: a replay as one native {@code SET key entry NX PX lease GET} on an
 * existing key, and a new key as that command followed by the smallest owner-checked
 * completion, a script of one {@code GET} and one {@code SET}, loaded once and run by its
 * digest. Needs Redis 7.0 or later ({@code NX} with {@code GET}).
 *
 * {@code benchmarks/redis-throughput.sh} starts a server and runs this.
 *
 * <p>
 * Arguments: {@code --port=6390 --threads=16 --seconds=10 --rounds=3
 * --redis-benchmark=redis-benchmark}.
 */
public final class RedisIdempotencyThroughput {

    private static final int REPLAYED_KEYS = 1_000;

    private static final Expiration LEASE = Expiration.milliseconds(30_000);

    private static final byte[] IN_PROGRESS = "in-progress".getBytes(StandardCharsets.UTF_8);

    private static final String COMPARE_AND_SET = "if redis.call('GET', KEYS[1]) == ARGV[1] then "
            + "redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end return 0";

    private static final byte[] RECEIPT = "\"receipt\"".getBytes(StandardCharsets.UTF_8);

    private static final byte[] TTL_MILLIS = "86400000".getBytes(StandardCharsets.UTF_8);

    private final int threads;

    private final int seconds;

    private final List<String> redisBenchmark;

    private final StringRedisTemplate redis;

    private final ResiliencePipeline pipeline;

    private final AtomicLong next = new AtomicLong();

    private @Nullable String compareAndSetSha;

    private RedisIdempotencyThroughput(int threads, int seconds, List<String> redisBenchmark,
            StringRedisTemplate redis) {
        this.threads = threads;
        this.seconds = seconds;
        this.redisBenchmark = redisBenchmark;
        this.redis = redis;
        RedisIdempotencyStore store = new RedisIdempotencyStore(redis, JsonMapper.builder().build(), "bench:");
        this.pipeline = ResiliencePipeline.builder("payment")
            .idempotency(IdempotencyPolicy.of("payment", store).withResultType(String.class))
            .build();
    }

    /**
     * Runs the rounds and prints every measurement, then the median ratios.
     * @param args {@code --port=}, {@code --threads=}, {@code --seconds=},
     * {@code --rounds=}, {@code --redis-benchmark=} (the tool's path)
     * @throws Exception if a measurement fails
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(Throughput.argument(args, "port", "6390"));
        int threads = Integer.parseInt(Throughput.argument(args, "threads", "16"));
        int seconds = Integer.parseInt(Throughput.argument(args, "seconds", "10"));
        int rounds = Integer.parseInt(Throughput.argument(args, "rounds", "3"));
        List<String> redisBenchmark = List.of(Throughput.argument(args, "redis-benchmark", "redis-benchmark"), "-p",
                Integer.toString(port), "-t", "set", "-c", Integer.toString(threads), "-n",
                Integer.toString(threads * 20_000), "--csv");
        LettuceConnectionFactory connections = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", port));
        connections.afterPropertiesSet();
        connections.start();
        try {
            new RedisIdempotencyThroughput(threads, seconds, redisBenchmark, new StringRedisTemplate(connections))
                .run(rounds, connections);
        }
        finally {
            connections.destroy();
        }
    }

    private void run(int rounds, LettuceConnectionFactory connections) throws Exception {
        for (int i = 0; i < REPLAYED_KEYS; i++) {
            call("replayed-" + i);
        }
        for (int i = 0; i < REPLAYED_KEYS; i++) {
            this.redis.opsForValue().set("bench:floor:replayed-" + i, "\"receipt\"", Duration.ofDays(1));
        }
        try (RedisConnection connection = connections.getConnection()) {
            this.compareAndSetSha = connection.scriptingCommands()
                .scriptLoad(COMPARE_AND_SET.getBytes(StandardCharsets.UTF_8));
        }
        Throughput.measure("warm-up SET", this.threads, this.seconds, this::clientSet);
        Throughput.measure("warm-up floor new", this.threads, this.seconds, this::floorNewKey);
        Throughput.measure("warm-up floor replay", this.threads, this.seconds, this::floorReplay);
        Throughput.measure("warm-up new keys", this.threads, this.seconds,
                () -> call("warm-" + this.next.incrementAndGet()));
        Throughput.measure("warm-up replays", this.threads, this.seconds,
                () -> call("replayed-" + (this.next.incrementAndGet() % REPLAYED_KEYS)));
        try (RedisConnection connection = connections.getConnection()) {
            connection.serverCommands().resetConfigStats();
        }
        double[] newKeysOfTwo = new double[rounds];
        double[] replaysOfOne = new double[rounds];
        double[] newKeysOfTwoClient = new double[rounds];
        double[] replaysOfOneClient = new double[rounds];
        double[] floorNewKeysOfTwo = new double[rounds];
        double[] floorReplaysOfOne = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            System.out.printf(Locale.ROOT, "round %d of %d%n", round + 1, rounds);
            double tool = redisBenchmarkSets();
            double clientSets = Throughput.measure("client SET", this.threads, this.seconds, this::clientSet);
            double newKeys = Throughput.measure("new keys", this.threads, this.seconds,
                    () -> call("new-" + this.next.incrementAndGet()));
            double replays = Throughput.measure("replays", this.threads, this.seconds,
                    () -> call("replayed-" + (this.next.incrementAndGet() % REPLAYED_KEYS)));
            double floorNewKeys = Throughput.measure("floor new keys", this.threads, this.seconds, this::floorNewKey);
            double floorReplays = Throughput.measure("floor replays", this.threads, this.seconds, this::floorReplay);
            floorNewKeysOfTwo[round] = floorNewKeys / (tool / 2);
            floorReplaysOfOne[round] = floorReplays / tool;
            newKeysOfTwo[round] = newKeys / (tool / 2);
            replaysOfOne[round] = replays / tool;
            newKeysOfTwoClient[round] = newKeys / (clientSets / 2);
            replaysOfOneClient[round] = replays / clientSets;
        }
        try (RedisConnection connection = connections.getConnection()) {
            System.out.printf(Locale.ROOT, "keys on the server at the end: %,d%n",
                    connection.serverCommands().dbSize());
            Properties stats = connection.serverCommands().info("commandstats");
            System.out.println("server time per command (INFO commandstats, all rounds):");
            for (String command : List.of("set", "evalsha", "hmget", "hset", "pexpire", "get")) {
                String line = stats.getProperty("cmdstat_" + command);
                if (line != null) {
                    System.out.printf(Locale.ROOT, "  %-8s %s%n", command, line);
                }
            }
        }
        System.out.printf(Locale.ROOT,
                "RESULT new_keys_of_two_sets=%.2f replays_of_one_set=%.2f "
                        + "new_keys_of_two_client_sets=%.2f replays_of_one_client_set=%.2f "
                        + "floor_new_keys_of_two_sets=%.2f floor_replays_of_one_set=%.2f (medians of %d rounds)%n",
                Throughput.median(newKeysOfTwo), Throughput.median(replaysOfOne), Throughput.median(newKeysOfTwoClient),
                Throughput.median(replaysOfOneClient), Throughput.median(floorNewKeysOfTwo),
                Throughput.median(floorReplaysOfOne), rounds);
    }

    private double redisBenchmarkSets() throws IOException, InterruptedException {
        Process process = new ProcessBuilder(this.redisBenchmark).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException("redis-benchmark failed: " + output);
        }
        double perSecond = output.lines()
            .filter((line) -> line.startsWith("\"SET\""))
            .mapToDouble((line) -> Double.parseDouble(line.split(",")[1].replace("\"", "")))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("No SET line in redis-benchmark's output: " + output));
        System.out.printf(Locale.ROOT, "%-20s %,10.0f requests/s%n", "redis-benchmark SET", perSecond);
        return perSecond;
    }

    private void clientSet() {
        this.redis.opsForValue().set("bench:set:" + (this.next.incrementAndGet() % REPLAYED_KEYS), "receipt");
    }

    private void floorNewKey() {
        String key = "bench:floor:" + this.next.incrementAndGet();
        if (claimNatively(key) != null) {
            throw new IllegalStateException("Key " + key + " existed");
        }
        byte[] name = key.getBytes(StandardCharsets.UTF_8);
        String sha = Objects.requireNonNull(this.compareAndSetSha);
        Long completed = this.redis.execute((RedisCallback<Long>) (connection) -> connection.scriptingCommands()
            .evalSha(sha, ReturnType.INTEGER, 1, name, IN_PROGRESS, RECEIPT, TTL_MILLIS));
        if (completed == null || completed != 1) {
            throw new IllegalStateException("Key " + key + " was not completed");
        }
    }

    private void floorReplay() {
        if (claimNatively("bench:floor:replayed-" + (this.next.incrementAndGet() % REPLAYED_KEYS)) == null) {
            throw new IllegalStateException("A replayed key was missing");
        }
    }

    private byte @Nullable [] claimNatively(String key) {
        byte[] name = key.getBytes(StandardCharsets.UTF_8);
        return this.redis.execute((RedisCallback<byte[]>) (connection) -> connection.stringCommands()
            .setGet(name, IN_PROGRESS, LEASE, SetOption.SET_IF_ABSENT));
    }

    private void call(String key) {
        ExecutionResult<String> result = this.pipeline.execute(CallContext.idempotent(key, "fingerprint"),
                () -> "receipt");
        if (!result.isSuccess()) {
            throw new IllegalStateException("Call with key " + key + " ended " + result.status(), result.error());
        }
    }

}
