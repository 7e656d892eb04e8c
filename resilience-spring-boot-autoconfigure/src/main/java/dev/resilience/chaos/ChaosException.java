package dev.resilience.chaos;

/**
 * The failure chaos injects into an attempt unless {@code resilience.chaos.instances.
 * <name>.exception} names another class.
 */
public class ChaosException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the failure.
     * @param message what failed, and that chaos made it fail
     */
    public ChaosException(String message) {
        super(message);
    }

}
