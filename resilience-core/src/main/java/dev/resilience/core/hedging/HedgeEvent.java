package dev.resilience.core.hedging;

/**
 * How one hedged attempt's race ended: which of its tries won, and how many hedges it
 * started. Enough for {@code resilience.hedges{outcome=won|lost}}: a race whose winner is
 * a hedge counts one hedge won, and every other hedge it started counts as lost.
 *
 * @param winner which try succeeded first: {@link #PRIMARY} for the attempt's first try,
 * {@code n} for its {@code n}-th hedge, {@link #NONE} when no try succeeded
 * @param hedges how many hedges started (passed the guards and ran the action)
 */
public record HedgeEvent(int winner, int hedges) {

    /** The winner of a race that the attempt's first try won. */
    public static final int PRIMARY = 0;

    /** The winner of a race that no try won. */
    public static final int NONE = -1;

    /**
     * Returns whether a hedge won the race.
     * @return {@code true} if a hedge succeeded first
     */
    public boolean hedgeWon() {
        return this.winner > PRIMARY;
    }

    /**
     * Returns how many of the started hedges did not win: cancelled, failed, or outrun.
     * @return the number of hedges lost
     */
    public int hedgesLost() {
        return hedgeWon() ? this.hedges - 1 : this.hedges;
    }

}
