package dev.resilience.core;

/**
 * What a call carries from the thread it starts on to the other threads that run its
 * steps: thread-bound values such as the logging context (MDC) or the current trace,
 * captured once when the call starts, restored while each step runs elsewhere and cleared
 * after it. The engine asks it to wrap every step of an asynchronous call that it hands
 * to an executor (a later attempt, the continuation of a backoff or of a guard's wait, a
 * fallback, the handling of a stage that completed on another thread, the listeners and
 * the end of the call) and every hedged try started on an executor, sync or async; the
 * step the call starts with runs on its own thread without it, and the timer thread,
 * which only hands steps over, never runs it.
 *
 * <p>
 * {@link #around} is called on the thread that hands the step over, which may be the
 * timer's; the runnable it returns is run on the thread that runs the step, once, and
 * must run the step exactly once. Should it throw before running the step, the engine
 * runs the step without the context, so that the call still ends.
 */
@FunctionalInterface
public interface CarriedContext {

    /** Carries nothing: steps run as they are. */
    CarriedContext NONE = (step) -> step;

    /**
     * Returns the step run with this context in place on the thread that runs it, and
     * that thread's own context put back afterwards.
     * @param step the step
     * @return the wrapped step
     */
    Runnable around(Runnable step);

}
