package dev.resilience.benchmarks.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.time.TimeSource;
import dev.resilience.redis.RedisRateLimiterStore;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Measures the permits per second of a rate limiter on the {@link RedisRateLimiterStore},
 * through a {@link ResiliencePipeline}, against a running Redis server, from a number of
 * threads. The limit (a million per second, the most the store can count) is far above
 * the rate, so that no permit is refused: a refusal, or a store error (which the
 * instance's own limiter would judge, faster than Redis), fails the run. Each round also
 * measures, just before and on the same server, what one permit costs at the least: one
 * run of the store's own script by its digest ({@code EVALSHA}), by the
 * {@code redis-benchmark} tool with as many connections as there are threads and through
 * the same client and connection as the store, and one plain {@code SET} both ways. Every
 * ratio is taken within a round and the median over the rounds is reported. Each
 * operation first runs once, unmeasured, as long as a measurement, to warm the JIT up.
 *
 * <p>
 * {@code MODE=ratelimiter benchmarks/redis-throughput.sh} starts a server and runs this.
 *
 * <p>
 * Arguments: {@code --port=6390 --threads=16 --seconds=10 --rounds=3
 * --redis-benchmark=redis-benchmark}.
 */
public final class RedisRateLimiterThroughput {

    private static final String SCRIPT = "dev/resilience/redis/ratelimiter-permit.lua";

    private static final int LIMIT = RateLimiterConfig.MAX_LIMIT;

    private static final String PREFIX = "bench:ratelimit:";

    /**
     * The floor of any script that decides a permit on Redis's clock: read the time and
     * the limiter's key, write the key with an expiry, and answer three numbers.
     */
    private static final String FLOOR = "local clock = redis.call('TIME') redis.call('GET', KEYS[1]) "
            + "redis.call('SET', KEYS[1], clock[1] .. clock[2], 'PX', 1000) return {0, 0, 0}";

    /** The script's arguments for a permit of a million per second without waiting. */
    private static final List<String> TAKE = List.of("take", "1", "1000000", "0");

    private final int threads;

    private final int seconds;

    private final String redisBenchmark;

    private final int port;

    private final RateLimiter limiter;

    private final ResiliencePipeline pipeline;

    private final AtomicLong next = new AtomicLong();

    private final LongAdder refusals = new LongAdder();

    private final ReactiveStringRedisTemplate reactive;

    private @Nullable String sha;

    private @Nullable Script script;

    private RedisRateLimiterThroughput(int threads, int seconds, String redisBenchmark, int port,
            LettuceConnectionFactory connections) {
        StringRedisTemplate redis = new StringRedisTemplate(connections);
        this.reactive = new ReactiveStringRedisTemplate(connections);
        this.threads = threads;
        this.seconds = seconds;
        this.redisBenchmark = redisBenchmark;
        this.port = port;
        RedisRateLimiterStore store = new RedisRateLimiterStore(redis, PREFIX, RedisRateLimiterStore.DEFAULT_TIMEOUT,
                RedisRateLimiterStore.OnStoreError.LOCAL, TimeSource.system(), null);
        RateLimiterConfig config = RateLimiterConfig.builder().limit(LIMIT).period(Duration.ofSeconds(1)).build();
        this.limiter = RateLimiter.of("quotes", config, TimeSource.system(), store.permits("quotes", config));
        this.pipeline = ResiliencePipeline.builder("quotes").rateLimiter(this.limiter).build();
    }

    /**
     * Runs the rounds and prints every measurement, then the median ratios.
     * @param args {@code --port=}, {@code --threads=}, {@code --seconds=},
     * {@code --rounds=}, {@code --redis-benchmark=} (the tool's path)
     * @throws Exception if a measurement fails, or a permit was refused or judged without
     * Redis
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(Throughput.argument(args, "port", "6390"));
        int threads = Integer.parseInt(Throughput.argument(args, "threads", "16"));
        int seconds = Integer.parseInt(Throughput.argument(args, "seconds", "10"));
        int rounds = Integer.parseInt(Throughput.argument(args, "rounds", "3"));
        LettuceConnectionFactory connections = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", port));
        connections.afterPropertiesSet();
        connections.start();
        try {
            new RedisRateLimiterThroughput(threads, seconds,
                    Throughput.argument(args, "redis-benchmark", "redis-benchmark"), port, connections)
                .run(rounds, connections);
        }
        finally {
            connections.destroy();
        }
    }

    private void run(int rounds, LettuceConnectionFactory connections) throws Exception {
        String text = new ClassPathResource(SCRIPT).getContentAsString(StandardCharsets.UTF_8);
        try (RedisConnection connection = connections.getConnection()) {
            this.sha = connection.scriptingCommands().scriptLoad(text.getBytes(StandardCharsets.UTF_8));
        }
        this.script = new Script(text, this.sha);
        String floorSha;
        try (RedisConnection connection = connections.getConnection()) {
            floorSha = connection.scriptingCommands().scriptLoad(FLOOR.getBytes(StandardCharsets.UTF_8));
        }
        Throughput.measure("warm-up client SET", this.threads, this.seconds, this::clientSet);
        Throughput.measure("warm-up client EVALSHA", this.threads, this.seconds, this::clientEvalSha);
        Throughput.measure("warm-up permits", this.threads, this.seconds, this::permit);
        try (RedisConnection connection = connections.getConnection()) {
            connection.serverCommands().resetConfigStats();
        }
        double[] ofToolScript = new double[rounds];
        double[] ofToolFloor = new double[rounds];
        double[] ofToolSet = new double[rounds];
        double[] ofClientScript = new double[rounds];
        double[] ofClientSet = new double[rounds];
        long permits = 0;
        for (int round = 0; round < rounds; round++) {
            System.out.printf(Locale.ROOT, "round %d of %d%n", round + 1, rounds);
            double toolSet = redisBenchmark("SET", "SET", List.of("-t", "set"));
            long[] before = evalShaStats(connections);
            double toolScript = redisBenchmark("EVALSHA", "EVALSHA", concat(
                    List.of("EVALSHA", Objects.requireNonNull(this.sha), "1", PREFIX + "{redis-benchmark}"), TAKE));
            long[] afterScript = evalShaStats(connections);
            double toolFloor = redisBenchmark("floor EVALSHA", "EVALSHA",
                    List.of("EVALSHA", floorSha, "1", PREFIX + "{redis-benchmark-floor}"));
            long[] afterFloor = evalShaStats(connections);
            double clientSet = Throughput.measure("client SET", this.threads, this.seconds, this::clientSet);
            double clientScript = Throughput.measure("client EVALSHA", this.threads, this.seconds, this::clientEvalSha);
            long permittedBefore = this.limiter.permittedCalls();
            long[] beforePermits = evalShaStats(connections);
            double permitsPerSecond = Throughput.measure("permits", this.threads, this.seconds, this::permit);
            long[] afterPermits = evalShaStats(connections);
            permits += this.limiter.permittedCalls() - permittedBefore;
            System.out.printf(Locale.ROOT,
                    "server time per EVALSHA: the store's script %.2f us, the floor %.2f us, the permits %.2f us%n",
                    microsPerCall(before, afterScript), microsPerCall(afterScript, afterFloor),
                    microsPerCall(beforePermits, afterPermits));
            ofToolScript[round] = permitsPerSecond / toolScript;
            ofToolFloor[round] = permitsPerSecond / toolFloor;
            ofToolSet[round] = permitsPerSecond / toolSet;
            ofClientScript[round] = permitsPerSecond / clientScript;
            ofClientSet[round] = permitsPerSecond / clientSet;
        }
        try (RedisConnection connection = connections.getConnection()) {
            Properties stats = connection.serverCommands().info("commandstats");
            System.out.println("server time per command (INFO commandstats, all rounds):");
            for (String command : List.of("set", "evalsha", "eval")) {
                String line = stats.getProperty("cmdstat_" + command);
                if (line != null) {
                    System.out.printf(Locale.ROOT, "  %-8s %s%n", command, line);
                }
            }
        }
        long storeErrors = Objects.requireNonNull(this.limiter.sharedPermits()).storeErrors();
        System.out.printf(Locale.ROOT, "permits measured: %,d, refused: %d, store errors: %d%n", permits,
                this.refusals.sum(), storeErrors);
        System.out.printf(Locale.ROOT,
                "RESULT permits_of_tool_evalsha=%.2f permits_of_tool_floor_evalsha=%.2f permits_of_tool_set=%.2f "
                        + "permits_of_client_evalsha=%.2f permits_of_client_set=%.2f (medians of %d rounds)%n",
                Throughput.median(ofToolScript), Throughput.median(ofToolFloor), Throughput.median(ofToolSet),
                Throughput.median(ofClientScript), Throughput.median(ofClientSet), rounds);
        if (this.refusals.sum() > 0 || storeErrors > 0) {
            throw new IllegalStateException("The run is void: " + this.refusals.sum() + " permits were refused and "
                    + storeErrors + " judged without Redis");
        }
    }

    /**
     * Reads the server's count of {@code EVALSHA} calls and the microseconds they took.
     */
    private static long[] evalShaStats(LettuceConnectionFactory connections) {
        try (RedisConnection connection = connections.getConnection()) {
            String line = connection.serverCommands().info("commandstats").getProperty("cmdstat_evalsha", "");
            long calls = 0;
            long usec = 0;
            for (String field : line.split(",")) {
                if (field.startsWith("calls=")) {
                    calls = Long.parseLong(field.substring(6));
                }
                else if (field.startsWith("usec=")) {
                    usec = Long.parseLong(field.substring(5));
                }
            }
            return new long[] { calls, usec };
        }
    }

    private static double microsPerCall(long[] before, long[] after) {
        long calls = after[0] - before[0];
        return (calls > 0) ? (double) (after[1] - before[1]) / calls : Double.NaN;
    }

    private double redisBenchmark(String name, String label, List<String> command)
            throws IOException, InterruptedException {
        List<String> arguments = concat(List.of(this.redisBenchmark, "-p", Integer.toString(this.port), "-c",
                Integer.toString(this.threads), "-n", Integer.toString(this.threads * 20_000), "--csv"), command);
        Process process = new ProcessBuilder(arguments).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException("redis-benchmark failed: " + output);
        }
        double perSecond = output.lines()
            .filter((line) -> line.startsWith("\"" + label))
            .mapToDouble((line) -> Double.parseDouble(line.split("\",\"")[1]))
            .findFirst()
            .orElseThrow(
                    () -> new IllegalStateException("No " + label + " line in redis-benchmark's output: " + output));
        System.out.printf(Locale.ROOT, "%-24s %,10.0f requests/s%n", "redis-benchmark " + name, perSecond);
        return perSecond;
    }

    private void clientSet() {
        this.reactive.opsForValue().set("bench:set:" + (this.next.incrementAndGet() % 1_000), "permit").block();
    }

    private void clientEvalSha() {
        List<Object> reply = this.reactive
            .execute(Objects.requireNonNull(this.script), List.of(PREFIX + "{client}"), TAKE)
            .next()
            .block();
        if (reply == null || reply.isEmpty() || ((Number) reply.get(0)).longValue() < 0) {
            throw new IllegalStateException("The script refused a permit: " + reply);
        }
    }

    private void permit() {
        ExecutionResult<String> result = this.pipeline.execute(() -> "quote");
        if (result.status() == ExecutionStatus.REJECTED) {
            this.refusals.increment();
        }
        else if (!result.isSuccess()) {
            throw new IllegalStateException("A call ended " + result.status(), result.error());
        }
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    /**
     * The store's script, its digest computed once, as the store holds it.
     */
    private record Script(String text, String sha1) implements RedisScript<List<Object>> {

        @Override
        public String getSha1() {
            return this.sha1;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Class<List<Object>> getResultType() {
            return (Class<List<Object>>) (Class<?>) List.class;
        }

        @Override
        public String getScriptAsString() {
            return this.text;
        }

    }

}
