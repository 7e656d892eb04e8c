package dev.resilience.benchmarks.bulkhead;

import dev.resilience.core.bulkhead.Bulkhead;
import dev.resilience.core.bulkhead.BulkheadConfig;
import dev.resilience.core.bulkhead.BulkheadType;
import dev.resilience.core.bulkhead.LimitAlgorithm;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * The bulkheads compared by the simulator. Each uses the engine's defaults (no wait for a
 * permit; an adaptive one starts at 25 and moves between 1 and 200) but for the two fixed
 * limits, and AIMD's threshold, which the scenario sets.
 */
public enum BulkheadStrategy {

    /** No bulkhead: every call goes to the downstream. */
    NONE("none", "no bulkhead"),

    /** A fixed limit of {@link BulkheadScenario#fixedLimit()} concurrent calls. */
    FIXED("fixed", "fixed limit"),

    /**
     * A fixed limit of {@link BulkheadScenario#headroomLimit()} concurrent calls: one set
     * with room for bursts, far above what the downstream serves at once.
     */
    FIXED_HEADROOM("fixed-headroom", "fixed limit"),

    /** An adaptive limit with the default algorithm, {@link LimitAlgorithm#GRADIENT}. */
    GRADIENT("gradient", "adaptive, gradient (default)"),

    /**
     * An adaptive limit with {@link LimitAlgorithm#AIMD} and the scenario's latency
     * threshold.
     */
    AIMD("aimd", "adaptive, AIMD");

    private final String id;

    private final String label;

    BulkheadStrategy(String id, String label) {
        this.id = id;
        this.label = label;
    }

    /**
     * Returns the strategy's identifier, used in the CSV.
     * @return a lower-case identifier
     */
    public String id() {
        return this.id;
    }

    /**
     * Returns the strategy's name for tables and the chart's legend.
     * @param scenario the scenario, whose fixed limit and AIMD threshold the name gives
     * @return a readable name
     */
    public String label(BulkheadScenario scenario) {
        return switch (this) {
            case FIXED -> this.label + " " + scenario.fixedLimit();
            case FIXED_HEADROOM -> this.label + " " + scenario.headroomLimit();
            case AIMD -> this.label + ", threshold " + threshold(scenario.aimdThresholdMillis());
            default -> this.label;
        };
    }

    /**
     * Builds the bulkhead of this strategy.
     * @param scenario the scenario
     * @param time the virtual clock it schedules on
     * @return the bulkhead, {@code null} for {@link #NONE}
     */
    public @Nullable Bulkhead bulkhead(BulkheadScenario scenario, TimeSource time) {
        BulkheadConfig config = switch (this) {
            case NONE -> null;
            case FIXED -> BulkheadConfig.builder().maxConcurrentCalls(scenario.fixedLimit()).build();
            case FIXED_HEADROOM -> BulkheadConfig.builder().maxConcurrentCalls(scenario.headroomLimit()).build();
            case GRADIENT -> BulkheadConfig.builder().type(BulkheadType.ADAPTIVE).build();
            case AIMD -> BulkheadConfig.builder()
                .type(BulkheadType.ADAPTIVE)
                .algorithm(LimitAlgorithm.AIMD)
                .latencyThreshold(scenario.aimdThreshold())
                .build();
        };
        return (config != null) ? Bulkhead.of(this.id, config, time) : null;
    }

    private static String threshold(long millis) {
        return (millis % 1000 == 0) ? (millis / 1000) + " s" : millis + " ms";
    }

}
