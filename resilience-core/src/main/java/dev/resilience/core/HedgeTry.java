package dev.resilience.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One try of a {@link HedgeRace}: the attempt's first ({@code index} 0) or a hedge, with
 * its guards' pass and how to stop it. Its state is the race's, kept under the race's
 * lock.
 */
final class HedgeTry {

    final int index;

    @Nullable Object pass;

    long start;

    volatile @Nullable Runnable canceller;

    boolean admitted;

    boolean decided;

    HedgeTry(int index) {
        this.index = index;
    }

    /**
     * Stops tries of a decided race, each as its canceller does; never under the race's
     * lock.
     * @param tries the tries, or {@code null} for none
     */
    static void stopAll(@Nullable List<HedgeTry> tries) {
        if (tries == null) {
            return;
        }
        for (HedgeTry attempt : tries) {
            Runnable canceller = attempt.canceller;
            if (canceller != null) {
                try {
                    canceller.run();
                }
                catch (RuntimeException ex) {
                    // a try that cannot be stopped runs on; its outcome is no longer
                    // awaited
                }
            }
        }
    }

}
