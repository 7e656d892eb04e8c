package dev.resilience.chaos;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

import dev.resilience.core.CarriedContext;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.time.ScheduledTask;
import org.jspecify.annotations.Nullable;

/**
 * The faults of one protected operation, by name, and the counts of those injected. Its
 * settings change at run time ({@link #update}); each attempt reads them once, waits the
 * latency, then fails or runs. Thread-safe.
 */
public final class ChaosInstance {

    private final String name;

    private final DoubleSupplier random;

    private final ChaosSettings configured;

    private final AtomicReference<ChaosSettings> settings;

    private final LongAdder failures = new LongAdder();

    private final LongAdder latencies = new LongAdder();

    ChaosInstance(String name, ChaosSettings settings, DoubleSupplier random) {
        this.name = name;
        this.configured = settings;
        this.settings = new AtomicReference<>(settings);
        this.random = random;
    }

    /**
     * Returns a synchronous attempt with this operation's faults injected before it, or
     * the attempt itself when there is no chaos.
     * @param <T> the type of the attempt's value
     * @param chaos the operation's chaos, or {@code null} when chaos is off
     * @param pipeline the operation's pipeline, whose clock the latency waits on
     * @param attempt the attempt
     * @return the attempt to run
     */
    public static <T> Callable<T> around(@Nullable ChaosInstance chaos, ResiliencePipeline pipeline,
            Callable<T> attempt) {
        return (chaos != null) ? chaos.around(pipeline, attempt) : attempt;
    }

    /**
     * Returns an asynchronous attempt with this operation's faults injected before it, or
     * the attempt itself when there is no chaos. The latency blocks no thread: a timer of
     * the pipeline's clock fires after it and hands the attempt to the pipeline's
     * executor, where it runs with what the call carries from its caller's thread.
     * @param <T> the type of the attempt's value
     * @param chaos the operation's chaos, or {@code null} when chaos is off
     * @param pipeline the operation's pipeline, whose clock and executor are used
     * @param carried what the call carries to the threads that run its steps
     * @param attempt the attempt
     * @return the attempt to run
     */
    public static <T> Supplier<CompletionStage<T>> aroundStage(@Nullable ChaosInstance chaos,
            ResiliencePipeline pipeline, CarriedContext carried, Supplier<CompletionStage<T>> attempt) {
        return (chaos != null) ? chaos.aroundStage(pipeline, carried, attempt) : attempt;
    }

    /**
     * Returns the protected operation's name.
     * @return the name
     */
    public String name() {
        return this.name;
    }

    /**
     * Returns the faults injected now.
     * @return the settings
     */
    public ChaosSettings settings() {
        return this.settings.get();
    }

    /**
     * Changes some of the faults; the attempts that start afterwards see them.
     * @param failureRate the new failure rate, or {@code null} to keep it
     * @param latency the new latency, or {@code null} to keep it
     * @return the settings now in force
     * @throws IllegalArgumentException when a new setting is out of range; nothing
     * changes
     */
    public ChaosSettings update(@Nullable Double failureRate, @Nullable Duration latency) {
        return this.settings.updateAndGet((current) -> current.with(failureRate, latency));
    }

    /**
     * Puts the faults back to the settings this instance was created with, undoing every
     * {@link #update}; the attempts that start afterwards see them. The counts of
     * injected faults are kept. For tests, between one and the next.
     */
    public void reset() {
        this.settings.set(this.configured);
    }

    /**
     * Returns how many failures were injected.
     * @return the count
     */
    public long injectedFailures() {
        return this.failures.sum();
    }

    /**
     * Returns how many attempts were delayed.
     * @return the count
     */
    public long injectedLatencies() {
        return this.latencies.sum();
    }

    private <T> Callable<T> around(ResiliencePipeline pipeline, Callable<T> attempt) {
        return () -> {
            ChaosSettings current = this.settings.get();
            if (current.inert()) {
                return attempt.call();
            }
            if (!current.latency().isZero()) {
                this.latencies.increment();
                pipeline.timeSource().sleep(current.latency());
                if (Thread.interrupted()) {
                    // a clock that does not block (the virtual one) fires the timeout
                    // during the sleep: end as an interrupted sleep would
                    throw new InterruptedException("Chaos latency of " + this.name + " interrupted");
                }
            }
            if (fails(current)) {
                throw current.newException(this.name);
            }
            return attempt.call();
        };
    }

    private <T> Supplier<CompletionStage<T>> aroundStage(ResiliencePipeline pipeline, CarriedContext carried,
            Supplier<CompletionStage<T>> attempt) {
        return () -> {
            ChaosSettings current = this.settings.get();
            if (current.inert()) {
                return attempt.get();
            }
            if (current.latency().isZero()) {
                return fails(current) ? CompletableFuture.failedFuture(current.newException(this.name)) : attempt.get();
            }
            this.latencies.increment();
            return new DelayedAttempt<>(current, attempt, pipeline.executor(), carried).start(pipeline,
                    current.latency());
        };
    }

    private boolean fails(ChaosSettings current) {
        if (current.failureRate() > 0 && this.random.getAsDouble() < current.failureRate()) {
            this.failures.increment();
            return true;
        }
        return false;
    }

    /**
     * One asynchronous attempt waiting out its latency: the timer only hands it to the
     * executor; cancelling the returned stage cancels the timer, or the attempt's own
     * stage once it runs.
     */
    private final class DelayedAttempt<T> {

        private final ChaosSettings settings;

        private final Supplier<CompletionStage<T>> attempt;

        private final Executor executor;

        private final CarriedContext carried;

        private final CompletableFuture<T> result = new CompletableFuture<>();

        private volatile @Nullable CompletionStage<T> running;

        DelayedAttempt(ChaosSettings settings, Supplier<CompletionStage<T>> attempt, Executor executor,
                CarriedContext carried) {
            this.settings = settings;
            this.attempt = attempt;
            this.executor = executor;
            this.carried = carried;
        }

        CompletableFuture<T> start(ResiliencePipeline pipeline, Duration latency) {
            ScheduledTask timer;
            try {
                timer = pipeline.timeSource().scheduleHandOff(this::handOff, latency);
            }
            catch (RuntimeException ex) {
                return CompletableFuture.failedFuture(ex);
            }
            this.result.whenComplete((value, failure) -> {
                if (this.result.isCancelled()) {
                    timer.cancel();
                    CompletionStage<T> stage = this.running;
                    if (stage != null) {
                        stage.toCompletableFuture().cancel(true);
                    }
                }
            });
            return this.result;
        }

        private void handOff() {
            if (this.result.isDone()) {
                return;
            }
            try {
                this.executor.execute(this.carried.around(this::run));
            }
            catch (RuntimeException ex) {
                this.result.completeExceptionally(ex);
            }
        }

        private void run() {
            if (this.result.isDone()) {
                return;
            }
            try {
                if (fails(this.settings)) {
                    this.result.completeExceptionally(this.settings.newException(ChaosInstance.this.name));
                    return;
                }
                CompletionStage<T> stage = this.attempt.get();
                this.running = stage;
                stage.whenComplete((value, failure) -> {
                    if (failure != null) {
                        this.result.completeExceptionally(failure);
                    }
                    else {
                        this.result.complete(value);
                    }
                });
                if (this.result.isCancelled()) {
                    stage.toCompletableFuture().cancel(true);
                }
            }
            catch (RuntimeException | Error ex) {
                this.result.completeExceptionally(ex);
            }
        }

    }

}
