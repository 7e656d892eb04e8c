package dev.resilience.core.circuitbreaker;

/**
 * The counts a breaker state decides on, with their rates.
 *
 * @param calls the number of buffered calls
 * @param failed how many of them failed
 * @param slow how many of them were slow
 * @param failureRate the failure rate in percent, or -1 while too few calls are buffered
 * @param slowCallRate the slow-call rate in percent, or -1 while too few calls are
 * buffered
 */
record WindowSnapshot(int calls, int failed, int slow, float failureRate, float slowCallRate) {

    static final WindowSnapshot EMPTY = new WindowSnapshot(0, 0, 0, -1, -1);

}
