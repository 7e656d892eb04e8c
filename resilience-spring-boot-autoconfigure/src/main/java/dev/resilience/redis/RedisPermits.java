package dev.resilience.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.ratelimiter.SharedPermits;
import dev.resilience.core.time.Durations;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The permits of one rate limiter in a {@link RedisRateLimiterStore}: each {@link #take}
 * is one run of the permit script, which reads Redis's clock; the limiter sleeps or
 * schedules the wait it answers on its own clock. The latest reservation with a wait (the
 * one that set the latest arrival time, whichever reply came first) is remembered with
 * that arrival time, which is what a give-back names; an earlier one cannot be the latest
 * in Redis either, and stays spent. Thread-safe.
 */
final class RedisPermits implements SharedPermits {

    private static final Log logger = LogFactory.getLog(RedisRateLimiterStore.class);

    private static final long NANOS_PER_MICRO = 1000;

    private static final long NANOS_PER_SECOND = 1_000_000_000;

    private static final String TAKE = "take";

    /** How long an answer of Redis estimates its clock: 5ms of drift at most. */
    private static final long CLOCK_ESTIMATE_AGE_NANOS = 10_000_000_000L;

    private static final String GIVE_BACK = "give-back";

    private final RedisRateLimiterStore store;

    private final String name;

    private final RateLimiterConfig config;

    private final List<String> keys;

    private final String intervalMicros;

    private final String burstMicros;

    private final long intervalNanos;

    private final long burstNanos;

    private final long timeoutMicros;

    private final LongAdder storeErrors = new LongAdder();

    private final AtomicReference<@Nullable Reservation> latest = new AtomicReference<>();

    /** Redis's latest answer, or {@code null} before the first. */
    private volatile @Nullable Answer answer;

    RedisPermits(RedisRateLimiterStore store, String name, RateLimiterConfig config) {
        this.store = store;
        this.name = name;
        this.config = config;
        this.keys = List.of(store.key(name));
        long periodNanos = Durations.toNanos(config.period());
        long interval = (periodNanos + config.limit() * NANOS_PER_MICRO - 1) / (config.limit() * NANOS_PER_MICRO);
        this.intervalMicros = Long.toString(interval);
        this.burstMicros = Long.toString(interval * config.limit());
        this.intervalNanos = interval * NANOS_PER_MICRO;
        this.burstNanos = this.intervalNanos * config.limit();
        this.timeoutMicros = Durations.toNanos(store.redis().timeout()) / NANOS_PER_MICRO;
    }

    /**
     * {@inheritDoc}
     * <p>
     * A refusal's wait saturates at {@link Long#MAX_VALUE} nanoseconds, whatever Redis
     * holds (an arrival time centuries ahead, or one Lua reads as infinite, which Redis
     * answers as the smallest integer); a reservation longer than the wait allowed is no
     * answer of the script, and counts as a store error. A caller whose thread is
     * interrupted sends nothing, and one interrupted while it waits for Redis is no store
     * error: either is judged as the store is set to. When the store refuses on errors,
     * the script is told when, on Redis's clock as estimated from its latest answer if
     * that came within 10 seconds, the caller stops waiting, and reserves nothing for a
     * take that Redis runs after that, for a call that was refused.
     */
    @Override
    public long take(long now, long maxWaitNanos) {
        if (Thread.currentThread().isInterrupted()) {
            return unanswered();
        }
        long maxWaitMicros = maxWaitNanos / NANOS_PER_MICRO;
        Answer previous = this.answer;
        long wait;
        long arrival;
        long owed;
        long redisNow;
        try {
            String maxWait = Long.toString(maxWaitMicros);
            String[] args = (previous != null && !local() && previous.recent())
                    ? new String[] { TAKE, this.intervalMicros, this.burstMicros, maxWait,
                            Long.toString(previous.deadline(this.timeoutMicros)) }
                    : new String[] { TAKE, this.intervalMicros, this.burstMicros, maxWait };
            @Nullable List<?> reply = this.store.redis().script(RedisRateLimiterStore.PERMIT, this.keys, args);
            wait = number(reply, 0);
            arrival = number(reply, 1);
            redisNow = number(reply, 2);
            owed = owed(reply, wait, arrival, maxWaitMicros);
        }
        catch (RuntimeException ex) {
            return (ex.getCause() instanceof InterruptedException) ? unanswered() : failed(ex);
        }
        this.answer = new Answer(now, nanos(owed), redisNow, System.nanoTime());
        if (wait < 0) {
            return (wait < -Long.MAX_VALUE / NANOS_PER_MICRO) ? -Long.MAX_VALUE : wait * NANOS_PER_MICRO;
        }
        if (wait > 0) {
            Reservation reserved = new Reservation(now, wait * NANOS_PER_MICRO, arrival);
            this.latest.accumulateAndGet(reserved,
                    (known, made) -> (known == null || known.arrival < made.arrival) ? made : known);
        }
        return wait * NANOS_PER_MICRO;
    }

    @Override
    public boolean giveBack(long now, long waitNanos) {
        Reservation reservation = this.latest.get();
        if (reservation == null || reservation.now != now || reservation.waitNanos != waitNanos
                || !this.latest.compareAndSet(reservation, null)) {
            return false;
        }
        try {
            CompletableFuture<?> reply = this.store.redis()
                .send(RedisRateLimiterStore.PERMIT, this.keys, this.store.giveBacksInFlight(), GIVE_BACK,
                        this.intervalMicros, this.burstMicros, Long.toString(reservation.arrival));
            if (reply == null) {
                giveBackFailed(new IllegalStateException(RedisRateLimiterStore.MAX_GIVE_BACKS_IN_FLIGHT
                        + " reservations given back wait for Redis already"));
            }
            else {
                reply.whenComplete((givenBack, failure) -> {
                    if (failure != null) {
                        giveBackFailed(failure);
                    }
                });
            }
        }
        catch (RuntimeException ex) {
            giveBackFailed(ex);
        }
        return true;
    }

    @Override
    public int availablePermits(long now) {
        Answer latest = this.answer;
        if (latest == null) {
            return -1;
        }
        long owed = Math.max(0, latest.owedNanos() - Math.max(0, now - latest.at()));
        return (int) Math.max(0, (this.burstNanos - owed) / this.intervalNanos);
    }

    @Override
    public String store() {
        return "redis";
    }

    @Override
    public long storeErrors() {
        return this.storeErrors.sum();
    }

    @Override
    public String toString() {
        return "RedisPermits[" + this.keys.get(0) + "]";
    }

    /**
     * Counts a failure of Redis to answer a permit, warns of it unless a warning about
     * this limiter was written within the store's interval, and answers as the store is
     * set to.
     * @return {@link SharedPermits#UNAVAILABLE}, or a refusal of one interval, at most a
     * second
     */
    private long failed(RuntimeException failure) {
        boolean local = local();
        warn("take a permit", failure,
                local ? "this instance judges its calls by its own limit of " + this.config.limit() + " per "
                        + Durations.format(this.config.period()) + " meanwhile, so the instances together may "
                        + "admit more" : "its calls are refused meanwhile");
        return unanswered();
    }

    /**
     * Answers a take that Redis did not answer as the store is set to: judged by the
     * limiter's own state, or refused with a wait of one interval, at most a second,
     * since Redis may answer again long before the next permit of a slow limiter is free.
     */
    private long unanswered() {
        return local() ? UNAVAILABLE : -Math.min(this.intervalNanos, NANOS_PER_SECOND);
    }

    private boolean local() {
        return this.store.onStoreError() == RedisRateLimiterStore.OnStoreError.LOCAL;
    }

    private void giveBackFailed(Throwable failure) {
        Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
                : failure;
        warn("give a reservation back", cause, "its permit stays spent");
    }

    private void warn(String operation, Throwable failure, String consequence) {
        this.storeErrors.increment();
        long heldBack = this.store.warnings().pass(this.name);
        if (heldBack >= 0 && logger.isWarnEnabled()) {
            logger.warn("Rate limiter '" + this.name + "' could not " + operation + " in Redis (key '"
                    + this.keys.get(0) + "'): " + failure + "; " + consequence + " (store errors so far: "
                    + storeErrors() + ", not logged since the last warning: " + heldBack + ")");
        }
    }

    /**
     * Returns how long after Redis's clock reading the limiter is back to a full burst,
     * in microseconds: {@link Long#MAX_VALUE} when a refusal's arrival time is beyond
     * what a {@code long} can count from it.
     */
    private static long owed(@Nullable List<?> reply, long wait, long arrival, long maxWaitMicros) {
        if (wait > maxWaitMicros) {
            throw new IllegalStateException("unexpected reply from Redis " + reply);
        }
        try {
            return Math.subtractExact(arrival, number(reply, 2));
        }
        catch (ArithmeticException ex) {
            if (wait < 0) {
                return Long.MAX_VALUE;
            }
            throw new IllegalStateException("unexpected reply from Redis " + reply, ex);
        }
    }

    private static long nanos(long micros) {
        if (micros > Long.MAX_VALUE / NANOS_PER_MICRO) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, micros) * NANOS_PER_MICRO;
    }

    private static long number(@Nullable List<?> reply, int index) {
        if (reply == null || reply.size() <= index || !(reply.get(index) instanceof Number number)) {
            throw new IllegalStateException("unexpected reply from Redis " + reply);
        }
        return number.longValue();
    }

    /**
     * The latest reservation with a wait: the limiter's clock reading and the wait it was
     * given, which name it in {@link #giveBack}, and the arrival time it set in Redis.
     */
    private record Reservation(long now, long waitNanos, long arrival) {
    }

    /**
     * Redis's latest answer: the limiter's clock reading of the take it answered, how
     * long after it the limiter is back to a full burst, Redis's clock reading in
     * microseconds, and this process's {@link System#nanoTime()} when the answer came.
     */
    private record Answer(long at, long owedNanos, long redisMicros, long answeredAt) {

        /**
         * Tells whether this answer is recent enough to estimate Redis's clock from: the
         * two clocks drift apart, by up to half a millisecond a second while NTP slews
         * one, so an older answer could say that a caller gives up earlier than it does.
         */
        boolean recent() {
            return System.nanoTime() - this.answeredAt < CLOCK_ESTIMATE_AGE_NANOS;
        }

        /**
         * Estimates Redis's clock, from this answer, at the end of a store timeout that
         * starts now: Redis read its clock before the answer came back, so the estimate
         * is early by that answer's way back, never late.
         */
        long deadline(long timeoutMicros) {
            return this.redisMicros + (System.nanoTime() - this.answeredAt) / NANOS_PER_MICRO + timeoutMicros;
        }

    }

}
