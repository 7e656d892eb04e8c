package dev.resilience.benchmarks.bulkhead;

/**
 * The three stretches of a scenario: before the downstream slows down, during the
 * slowdown, and after it, until the calls stop arriving.
 */
enum Phase {

    /** From the start to the slowdown. */
    BEFORE("before"),

    /** The slowdown. */
    DURING("during"),

    /** From the end of the slowdown to the last arrival. */
    AFTER("after");

    private final String label;

    Phase(String label) {
        this.label = label;
    }

    /**
     * Returns the phase's name for tables.
     * @return a lower-case name
     */
    String label() {
        return this.label;
    }

    /**
     * Returns the second the phase starts.
     * @param scenario the scenario
     * @return the first second of the phase
     */
    int from(BulkheadScenario scenario) {
        return switch (this) {
            case BEFORE -> 0;
            case DURING -> scenario.slowdownStart();
            case AFTER -> scenario.slowdownEnd();
        };
    }

    /**
     * Returns the second after the phase.
     * @param scenario the scenario
     * @return the first second past the phase
     */
    int to(BulkheadScenario scenario) {
        return switch (this) {
            case BEFORE -> scenario.slowdownStart();
            case DURING -> scenario.slowdownEnd();
            case AFTER -> scenario.duration();
        };
    }

}
