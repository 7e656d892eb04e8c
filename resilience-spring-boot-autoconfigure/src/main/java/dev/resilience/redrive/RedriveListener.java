package dev.resilience.redrive;

/**
 * Hears how each re-drive ended, such as the meter
 * {@code resilience.deadletters.redriven}. What a listener throws is ignored.
 */
@FunctionalInterface
public interface RedriveListener {

    /**
     * Called once a re-drive ended, on the thread that asked for it.
     * @param result how it ended
     */
    void onRedrive(RedriveResult result);

}
