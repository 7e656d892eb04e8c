package dev.resilience.registry;

import java.util.concurrent.atomic.LongAdder;

import dev.resilience.core.ExecutionListener;
import dev.resilience.core.hedging.HedgeEvent;
import dev.resilience.core.hedging.HedgingPolicy;

/**
 * A named hedging instance: its policy, shared by every method that names it, and the
 * counts of its hedges, which every pipeline of those methods reports to as a listener. A
 * race won by a hedge counts one hedge won; every other hedge the race started counts as
 * lost (outrun, failed or stopped). An attempt's first try is no hedge: it is counted
 * neither when it wins nor when a hedge outruns it. Thread-safe; counting is a
 * {@link LongAdder} increment.
 */
public final class HedgingInstance implements ExecutionListener {

    private final String name;

    private final HedgingPolicy policy;

    private final LongAdder won = new LongAdder();

    private final LongAdder lost = new LongAdder();

    HedgingInstance(String name, HedgingPolicy policy) {
        this.name = name;
        this.policy = policy;
    }

    /**
     * Returns the instance's name.
     * @return the name
     */
    public String name() {
        return this.name;
    }

    /**
     * Returns the instance's policy.
     * @return the policy
     */
    public HedgingPolicy policy() {
        return this.policy;
    }

    /**
     * Returns how many hedges won their race.
     * @return the count
     */
    public long won() {
        return this.won.sum();
    }

    /**
     * Returns how many started hedges did not win their race.
     * @return the count
     */
    public long lost() {
        return this.lost.sum();
    }

    @Override
    public void onHedge(String pipelineName, HedgeEvent event) {
        if (event.hedgeWon()) {
            this.won.increment();
        }
        this.lost.add(event.hedgesLost());
    }

}
