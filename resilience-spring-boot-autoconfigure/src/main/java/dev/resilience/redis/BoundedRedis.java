package dev.resilience.redis;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.resilience.core.time.Durations;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.ReactiveRedisConnection;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

/**
 * The Redis commands of a store, each bounded in time: a caller waits at most the bound
 * for a reply, then gets Spring's {@link QueryTimeoutException}, whatever the client's
 * own command timeout.
 *
 * <p>
 * With a connection factory that has a reactive API (Lettuce's), a command is sent on the
 * caller's thread and its reply awaited for at most the bound: no thread is added to a
 * call. Until a command is answered, and after one failed, the client may have to connect
 * first, on the thread that sends, for up to its connect timeout: commands are then sent,
 * in order, from one thread owned by this object, the first being a {@code PING} sent
 * when this object is made. With another driver (Jedis), the blocking command runs on a
 * small pool owned by this object while the caller waits at most the bound; a command
 * whose caller stopped waiting before it started is not sent. A command that timed out
 * may still be carried out by Redis when it answers again. Every other failure is
 * Spring's {@code DataAccessException} of the driver. Thread-safe.
 */
final class BoundedRedis {

    private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
            BoundedRedis.class.getClassLoader());

    private static final int BLOCKING_THREADS = 16;

    private final Commands commands;

    private final Duration timeout;

    private final long timeoutNanos;

    private final @Nullable RedisEvictionPolicyCheck evictionCheck;

    /**
     * Bounds the commands of a template.
     * @param template the template on the application's Redis connection
     * @param timeout the longest a caller waits for a reply; positive
     * @param threadNamePrefix the prefix of the names of the threads that run blocking
     * commands, where the driver has no reactive API
     * @throws IllegalArgumentException if the timeout is not positive
     */
    BoundedRedis(StringRedisTemplate template, Duration timeout, String threadNamePrefix) {
        this(template, timeout, threadNamePrefix, null);
    }

    /**
     * Bounds the commands of a template and tells a check of Redis's eviction policy of
     * their outcomes, so that it checks again on the first success after a failure.
     * @param template the template on the application's Redis connection
     * @param timeout the longest a caller waits for a reply; positive
     * @param threadNamePrefix the prefix of the names of the threads that run blocking
     * commands, where the driver has no reactive API
     * @param evictionCheck the check, or {@code null}
     * @throws IllegalArgumentException if the timeout is not positive
     */
    BoundedRedis(StringRedisTemplate template, Duration timeout, String threadNamePrefix,
            @Nullable RedisEvictionPolicyCheck evictionCheck) {
        this.evictionCheck = evictionCheck;
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("Redis store timeout must be positive, was " + timeout);
        }
        this.timeout = timeout;
        this.timeoutNanos = Durations.toNanos(timeout);
        RedisConnectionFactory factory = template.getRequiredConnectionFactory();
        this.commands = (REACTOR_PRESENT && factory instanceof ReactiveRedisConnectionFactory reactive)
                ? new Reactive(new ReactiveStringRedisTemplate(reactive), threadNamePrefix)
                : new Blocking(template, threadNamePrefix);
    }

    /**
     * Returns the longest a caller waits for a reply.
     * @return the bound
     */
    Duration timeout() {
        return this.timeout;
    }

    /**
     * Runs a script.
     * @param <T> the type of its reply
     * @param script the script
     * @param keys the keys it touches
     * @param args its arguments
     * @return its reply, converted to the script's result type
     */
    <T> @Nullable T script(RedisScript<T> script, List<String> keys, String... args) {
        return await(this.commands.script(script, keys, List.of(args)).reply());
    }

    /**
     * Runs a script, and when its caller stops waiting without a reply (a failure, the
     * bound passed, an interrupt) while the command may still be carried out, runs
     * {@code afterwards} once the command has ended, whatever the driver: a command sent
     * then lands after it.
     * @param <T> the type of its reply
     * @param script the script
     * @param keys the keys it touches
     * @param afterwards what to do once a command given up on has ended
     * @param args its arguments
     * @return its reply, converted to the script's result type
     */
    <T> @Nullable T scriptOrElse(RedisScript<T> script, List<String> keys, Runnable afterwards, String... args) {
        Command<T> command = this.commands.script(script, keys, List.of(args));
        try {
            return await(command.reply());
        }
        catch (RuntimeException | Error ex) {
            command.ended().whenComplete((ended, failure) -> afterwards.run());
            throw ex;
        }
    }

    /**
     * Sends a script as its text ({@code EVAL}) without waiting for its reply, unless
     * {@code inFlight} has no permit left. As text, it is one command that Redis carries
     * out when it answers again, even after a restart emptied its script cache, where a
     * script sent by its digest needs a second round trip that a client which gave up on
     * it never makes. The permit is held until the command itself ends (Redis answered,
     * or the client gave up on it), not only until the bound: a command that outlived the
     * bound may still be carried out, and while it waits in the client it counts.
     * @param script the script
     * @param keys the keys it touches
     * @param inFlight the permits of the commands sent and not yet ended
     * @param args its arguments
     * @return the reply, failed with {@link QueryTimeoutException} past the bound, or
     * {@code null} when no permit was left and nothing was sent
     */
    @Nullable CompletableFuture<?> send(RedisScript<?> script, List<String> keys, Semaphore inFlight, String... args) {
        if (!inFlight.tryAcquire()) {
            return null;
        }
        Command<?> command;
        try {
            command = this.commands.eval(script, keys, List.of(args));
        }
        catch (RuntimeException ex) {
            inFlight.release();
            throw ex;
        }
        return sent(command, inFlight);
    }

    private CompletableFuture<?> sent(Command<?> command, Semaphore inFlight) {
        CompletableFuture<?> reply = command.reply();
        command.ended().whenComplete((ended, endFailure) -> inFlight.release());
        reply.whenComplete((value, failure) -> {
            if (this.evictionCheck != null) {
                if (failure != null) {
                    this.evictionCheck.failed();
                }
                else {
                    this.evictionCheck.succeeded();
                }
            }
        });
        return reply.copy().orTimeout(this.timeoutNanos, TimeUnit.NANOSECONDS).handle((value, failure) -> {
            Throwable cause = (failure instanceof CompletionException) ? failure.getCause() : failure;
            if (cause instanceof TimeoutException timeout) {
                throw new QueryTimeoutException("Redis did not answer within " + this.timeout.toMillis() + " ms",
                        timeout);
            }
            if (failure != null) {
                throw (failure instanceof CompletionException completion) ? completion
                        : new CompletionException(failure);
            }
            return value;
        });
    }

    private <T> @Nullable T await(CompletableFuture<T> reply) {
        T value;
        try {
            value = awaitReply(reply);
        }
        catch (RuntimeException | Error ex) {
            if (this.evictionCheck != null) {
                this.evictionCheck.failed();
            }
            throw ex;
        }
        if (this.evictionCheck != null) {
            this.evictionCheck.succeeded();
        }
        return value;
    }

    private <T> @Nullable T awaitReply(CompletableFuture<T> reply) {
        try {
            return reply.get(this.timeoutNanos, TimeUnit.NANOSECONDS);
        }
        catch (TimeoutException ex) {
            reply.cancel(false);
            throw new QueryTimeoutException("Redis did not answer within " + this.timeout.toMillis() + " ms", ex);
        }
        catch (InterruptedException ex) {
            reply.cancel(false);
            Thread.currentThread().interrupt();
            throw new RedisSystemException("Interrupted while waiting for Redis", ex);
        }
        catch (CancellationException ex) {
            throw new RedisSystemException("Redis command was cancelled", ex);
        }
        catch (ExecutionException ex) {
            Throwable cause = ex.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new RedisSystemException("Redis command failed", cause);
        }
    }

    /** The commands a store sends. */
    private interface Commands {

        <T> Command<T> script(RedisScript<T> script, List<String> keys, List<String> args);

        Command<Object> eval(RedisScript<?> script, List<String> keys, List<String> args);

    }

    private static ReturnType returnType(RedisScript<?> script) {
        return ReturnType.fromJavaType(script.getResultType());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * One command sent: its reply, which a caller that stops waiting may cancel, and its
     * end, once the driver is done with it (answered, failed, or never sent).
     */
    private record Command<T>(CompletableFuture<T> reply, CompletableFuture<?> ended) {
    }

    /**
     * Commands through Spring Data Redis's reactive API, sent on the caller's thread
     * while the latest command was answered, else from a thread of its own.
     */
    private static final class Reactive implements Commands {

        private final ReactiveStringRedisTemplate redis;

        private final Scheduler connecting;

        /** Whether the latest command to end was answered: the client is connected. */
        private volatile boolean answered;

        Reactive(ReactiveStringRedisTemplate redis, String threadNamePrefix) {
            this.redis = redis;
            this.connecting = Schedulers.fromExecutor(CommandThreads.pool(1, threadNamePrefix + "connect-"));
            send(this.redis.execute(ReactiveRedisConnection::ping).next());
        }

        /**
         * Commands share one connection, in order: a command sent after another lands
         * after it, so the reply is also the end. Those sent while the connection may
         * still be made are sent by one thread, in the order they were given.
         */
        @Override
        public <T> Command<T> script(RedisScript<T> script, List<String> keys, List<String> args) {
            CompletableFuture<T> reply = send(this.redis.execute(script, keys, args).next());
            return new Command<>(reply, reply);
        }

        @Override
        public Command<Object> eval(RedisScript<?> script, List<String> keys, List<String> args) {
            ByteBuffer[] keysAndArgs = Stream.concat(keys.stream(), args.stream())
                .map((text) -> ByteBuffer.wrap(bytes(text)))
                .toArray(ByteBuffer[]::new);
            CompletableFuture<Object> reply = send(this.redis.execute((connection) -> connection.scriptingCommands()
                .eval(ByteBuffer.wrap(bytes(script.getScriptAsString())), returnType(script), keys.size(), keysAndArgs))
                .next());
            return new Command<>(reply, reply);
        }

        private <T> CompletableFuture<T> send(Mono<T> command) {
            CompletableFuture<T> reply = (this.answered ? command : command.subscribeOn(this.connecting)
                .onErrorMap(RejectedExecutionException.class, CommandThreads::tooManyWaiting)).toFuture();
            reply.whenComplete((value, failure) -> this.answered = (failure == null));
            return reply;
        }

    }

    /**
     * Blocking commands run on a pool of at most {@value #BLOCKING_THREADS} daemon
     * threads, which end when idle.
     */
    private static final class Blocking implements Commands {

        private final StringRedisTemplate redis;

        private final ExecutorService executor;

        Blocking(StringRedisTemplate redis, String threadNamePrefix) {
            this.redis = redis;
            this.executor = CommandThreads.pool(BLOCKING_THREADS, threadNamePrefix);
        }

        @Override
        public <T> Command<T> script(RedisScript<T> script, List<String> keys, List<String> args) {
            return run(() -> this.redis.execute(script, keys, args.toArray()));
        }

        @Override
        public Command<Object> eval(RedisScript<?> script, List<String> keys, List<String> args) {
            byte[][] keysAndArgs = Stream.concat(keys.stream(), args.stream())
                .map(BoundedRedis::bytes)
                .toArray(byte[][]::new);
            return run(() -> this.redis.execute((RedisCallback<Object>) (connection) -> connection.scriptingCommands()
                .eval(bytes(script.getScriptAsString()), returnType(script), keys.size(), keysAndArgs)));
        }

        /**
         * Runs a command on the pool, each on a connection of its own, in no order: its
         * end is when its task is done, after a reply its caller stopped waiting for.
         */
        private <T> Command<T> run(Supplier<T> command) {
            CompletableFuture<T> reply = new CompletableFuture<>();
            CompletableFuture<Void> ended = new CompletableFuture<>();
            try {
                this.executor.execute(() -> {
                    try {
                        if (!reply.isDone()) {
                            reply.complete(command.get());
                        }
                    }
                    catch (Throwable ex) {
                        reply.completeExceptionally(ex);
                    }
                    finally {
                        ended.complete(null);
                    }
                });
            }
            catch (RejectedExecutionException ex) {
                reply.completeExceptionally(CommandThreads.tooManyWaiting(ex));
                ended.complete(null);
            }
            return new Command<>(reply, ended);
        }

    }

}
