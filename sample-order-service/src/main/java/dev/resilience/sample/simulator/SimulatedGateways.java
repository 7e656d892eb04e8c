package dev.resilience.sample.simulator;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;

/**
 * The two simulated payment gateways, {@code primary} and {@code backup}.
 */
@Component
public class SimulatedGateways {

    private final Map<String, SimulatedGateway> gateways = new LinkedHashMap<>();

    /**
     * Creates both gateways, without charges.
     */
    public SimulatedGateways() {
        this.gateways.put("primary", new SimulatedGateway("primary", Clock.systemUTC()));
        this.gateways.put("backup", new SimulatedGateway("backup", Clock.systemUTC()));
    }

    /**
     * Finds a gateway by name.
     * @param name {@code primary} or {@code backup}
     * @return the gateway, or empty for another name
     */
    public Optional<SimulatedGateway> find(String name) {
        return Optional.ofNullable(this.gateways.get(name));
    }

    /**
     * Returns both gateways.
     * @return the gateways by name
     */
    public Map<String, SimulatedGateway> all() {
        return this.gateways;
    }

}
