package dev.resilience.sample.simulator;

import java.util.List;
import java.util.Map;

/**
 * What the simulated downstreams saw, and where the orders stand.
 *
 * @param requests the requests each downstream received
 * @param charges the charges each gateway made
 * @param refusedInProgress the charge requests each gateway answered 409 because a
 * request with the same key was still being processed
 * @param ordersChargedMoreThanOnce the orders charged more than once, by one gateway or
 * both; always empty
 * @param paymentsByState the number of orders in each state
 */
public record SimulatorReport(Map<String, Long> requests, Map<String, Integer> charges,
        Map<String, Long> refusedInProgress, List<Long> ordersChargedMoreThanOnce, Map<String, Long> paymentsByState) {
}
