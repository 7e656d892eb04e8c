package dev.resilience.core;

/**
 * Ends a call whose thread was interrupted while the call waited: for its next attempt,
 * or for another call holding its idempotency key. The cause is the
 * {@link InterruptedException}; the errors of the attempts made before are attached as
 * suppressed exceptions. The thread's interrupt flag is set again when the call returns.
 */
public class CallInterruptedException extends RuntimeException {

    /**
     * Creates the exception.
     * @param name the instance whose call was interrupted
     * @param interruption the interruption
     */
    public CallInterruptedException(String name, InterruptedException interruption) {
        super("Call of '" + name + "' was interrupted while it waited", interruption);
    }

}
