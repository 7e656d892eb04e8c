package dev.resilience.sample.simulator;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The simulated price oracle: {@code GET /sim/oracle/prices/eth} quotes a price that
 * walks a few dollars at each request, or fails with a 503 as its faults say.
 */
@RestController
public class OracleSimulatorController {

    private final FaultInjector faults;

    private final Random random;

    private final AtomicLong cents = new AtomicLong(3_000_00);

    /**
     * Creates the oracle.
     * @param faults the simulator's faults
     * @param properties the simulator's settings, whose seed drives the price walk
     */
    public OracleSimulatorController(FaultInjector faults, SimulatorProperties properties) {
        this.faults = faults;
        this.random = new Random(properties.seed());
    }

    /**
     * Quotes the ETH price.
     * @return 200 with the price, or 503
     */
    @GetMapping("/sim/oracle/prices/eth")
    public ResponseEntity<?> eth() {
        boolean fails = this.faults.fails("oracle");
        this.faults.delay("oracle");
        if (fails) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "Simulated failure of oracle"));
        }
        long price = this.cents.addAndGet(this.random.nextInt(-500, 501));
        return ResponseEntity.ok(new OraclePrice("ETH", BigDecimal.valueOf(price, 2), Instant.now()));
    }

}
