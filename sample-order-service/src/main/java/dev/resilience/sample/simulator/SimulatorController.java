package dev.resilience.sample.simulator;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.resilience.sample.order.OrderRepository;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Control of the simulation: {@code POST /simulator/faults} changes a downstream's
 * behaviour, {@code GET /simulator/faults} shows them all, and
 * {@code GET /simulator/report} counts requests, charges, double charges and orders by
 * state.
 */
@RestController
public class SimulatorController {

    private final FaultInjector faults;

    private final SimulatedGateways gateways;

    private final OrderRepository orders;

    /**
     * Creates the controller.
     * @param faults the downstreams' faults
     * @param gateways the simulated gateways
     * @param orders the orders
     */
    public SimulatorController(FaultInjector faults, SimulatedGateways gateways, OrderRepository orders) {
        this.faults = faults;
        this.gateways = gateways;
        this.orders = orders;
    }

    /**
     * Changes one downstream's faults.
     * @param settings the target and its new faults
     * @return the faults of every downstream
     * @throws ResponseStatusException 400 for an unknown target or an out-of-range value
     */
    @PostMapping("/simulator/faults")
    public Map<String, Faults> set(@RequestBody FaultSettings settings) {
        if (settings.target() == null || !FaultInjector.TARGETS.contains(settings.target())) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "target must be one of " + FaultInjector.TARGETS);
        }
        try {
            this.faults.set(settings.target(), settings.faults());
        }
        catch (IllegalArgumentException ex) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, ex.getMessage(), ex);
        }
        return this.faults.faults();
    }

    /**
     * Shows every downstream's faults.
     * @return the faults by downstream name
     */
    @GetMapping("/simulator/faults")
    public Map<String, Faults> faults() {
        return this.faults.faults();
    }

    /**
     * Reports requests, charges, double charges and orders by state.
     * @return the report
     */
    @GetMapping("/simulator/report")
    public SimulatorReport report() {
        Map<String, Integer> charges = new LinkedHashMap<>();
        Map<String, Long> refusedInProgress = new LinkedHashMap<>();
        this.gateways.all().forEach((name, gateway) -> {
            charges.put(name, gateway.charges().size());
            refusedInProgress.put(name, gateway.refusedInProgress());
        });
        Map<Long, Long> chargesPerOrder = this.gateways.all()
            .values()
            .stream()
            .flatMap((gateway) -> gateway.charges().stream())
            .collect(Collectors.groupingBy(ChargeRecord::orderId, Collectors.counting()));
        List<Long> chargedMoreThanOnce = chargesPerOrder.entrySet()
            .stream()
            .filter((entry) -> entry.getValue() > 1)
            .map(Map.Entry::getKey)
            .sorted()
            .toList();
        return new SimulatorReport(this.faults.requests(), charges, refusedInProgress, chargedMoreThanOnce,
                this.orders.countByState());
    }

}
