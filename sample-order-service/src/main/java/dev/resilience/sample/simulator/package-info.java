/**
 * Simulated downstreams inside the application: two payment gateways, a price oracle and
 * their faults.
 */
@NullMarked
package dev.resilience.sample.simulator;

import org.jspecify.annotations.NullMarked;
