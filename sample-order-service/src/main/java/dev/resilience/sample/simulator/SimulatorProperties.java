package dev.resilience.sample.simulator;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the simulated downstreams, under {@code sample.simulator}.
 *
 * @param seed the seed of the random failures, so that a run can be repeated
 */
@ConfigurationProperties("sample.simulator")
public record SimulatorProperties(@DefaultValue("42") long seed) {
}
