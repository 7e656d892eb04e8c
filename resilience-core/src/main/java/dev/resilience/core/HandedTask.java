package dev.resilience.core;

import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A step handed to an executor, which knows what to do when the executor drops it unrun:
 * an executor shut down with queued tasks cancels them, as Spring's task executors do,
 * and what the step held must still be settled: a hedged try that never ran, or its race
 * would wait for it forever; the passes of an admission the guards had not finished.
 */
final class HandedTask extends FutureTask<Void> {

    private final Runnable dropped;

    private final AtomicBoolean started = new AtomicBoolean();

    /**
     * Creates a task.
     * @param step the step; what escapes it is the step's to handle
     * @param dropped runs instead when the executor cancels the task before it started
     */
    HandedTask(Runnable step, Runnable dropped) {
        super(step, null);
        this.dropped = dropped;
    }

    /**
     * Hands a step of a try to an executor, guarded and with what the call carries from
     * its caller's thread: what escapes the step, or the executor's dropping it unrun,
     * settles the try ({@link HedgeRace#broke}).
     * @param executor the executor
     * @param race the try's race
     * @param attempt the try
     * @param step the step
     * @throws java.util.concurrent.RejectedExecutionException if the executor refuses it
     */
    static void handTo(Executor executor, HedgeRace<?> race, HedgeTry attempt, Runnable step) {
        handTo(executor, race, attempt, step, (dropped) -> race.broke(attempt, dropped));
    }

    /**
     * Hands a step of a try to an executor, guarded and with what the call carries from
     * its caller's thread: what escapes the step settles the try
     * ({@link HedgeRace#broke}); the executor's dropping it unrun runs {@code dropped}
     * instead, on the thread that drops it, for a step that holds what the race does not
     * know of yet (a pass, an outcome, a stage to stop).
     * @param executor the executor
     * @param race the try's race
     * @param attempt the try
     * @param step the step
     * @param dropped settles the try in the step's place, told why
     * @throws java.util.concurrent.RejectedExecutionException if the executor refuses it
     */
    static void handTo(Executor executor, HedgeRace<?> race, HedgeTry attempt, Runnable step,
            Consumer<RuntimeException> dropped) {
        executor.execute(new HandedTask(CarriedStep.of(race.carried(), () -> {
            try {
                step.run();
            }
            catch (RuntimeException ex) {
                race.broke(attempt, ex);
            }
        }), () -> dropped.accept(new RejectedExecutionException("The executor dropped a step of a hedged try"))));
    }

    @Override
    public void run() {
        if (this.started.compareAndSet(false, true)) {
            super.run();
        }
    }

    @Override
    protected void done() {
        if (isCancelled() && this.started.compareAndSet(false, true)) {
            try {
                this.dropped.run();
            }
            catch (RuntimeException ex) {
                // the one who dropped the task is not told: the race settles the try
            }
        }
    }

}
