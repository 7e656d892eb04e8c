package dev.resilience.core;

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

}
