package dev.resilience.sample.simulator;

import java.util.List;
import java.util.Optional;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The simulated gateways' HTTP API, as the payment client sees it: {@code POST
 * /sim/gateways/{name}/charges} with an {@code Idempotency-Key} header charges (201, or
 * 200 with the earlier charge for a key already charged, or 200 with a charge whose
 * {@code status} is {@code pending}; 402 for a declined card; 409 while an earlier
 * request with the key is still being processed; 503 for an injected failure, which
 * charges nothing), and {@code GET /sim/gateways/{name}/charges/{key}} tells whether a
 * key was charged (200 with the charge, {@code pending} or {@code succeeded}, or 404
 * whose {@code processing} property says whether a charge under the key may still be
 * recorded).
 * <p>
 * A new charge is processed for the injected processing time and recorded at its end,
 * pending for the injected share of new charges; the injected latency then delays the
 * answer, not the charge, as with a gateway whose response is lost on the way back.
 */
@RestController
public class GatewaySimulatorController {

    /** The card token every gateway declines. */
    public static final String DECLINED_CARD = "tok_declined";

    private final SimulatedGateways gateways;

    private final FaultInjector faults;

    /**
     * Creates the controller.
     * @param gateways the simulated gateways
     * @param faults their faults
     */
    public GatewaySimulatorController(SimulatedGateways gateways, FaultInjector faults) {
        this.gateways = gateways;
        this.faults = faults;
    }

    /**
     * Charges an order, once per idempotency key.
     * @param name {@code primary} or {@code backup}
     * @param key the idempotency key
     * @param request the order, amount and card
     * @return the charge (201 when made by this request and settled, 200 when made before
     * or still pending), or a problem
     */
    @PostMapping("/sim/gateways/{name}/charges")
    public ResponseEntity<?> charge(@PathVariable String name, @RequestHeader("Idempotency-Key") String key,
            @RequestBody ChargeRequest request) {
        SimulatedGateway gateway = gateway(name);
        if (this.faults.fails(name)) {
            this.faults.delay(name);
            return unavailable(name);
        }
        if (DECLINED_CARD.equals(request.cardToken())) {
            this.faults.delay(name);
            return ResponseEntity.status(HttpStatus.PAYMENT_REQUIRED)
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.PAYMENT_REQUIRED, "Card declined"));
        }
        Optional<SimulatedGateway.Charged> charged = gateway.charge(key, request, () -> this.faults.process(name));
        this.faults.delay(name);
        if (charged.isEmpty()) {
            return ResponseEntity.status(HttpStatus.CONFLICT)
                .body(ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
                        "A request with key " + key + " is still being processed; retry later"));
        }
        ChargeRecord charge = charged.get().charge();
        boolean created = !charged.get().replayed() && ChargeRecord.SUCCEEDED.equals(charge.status());
        return ResponseEntity.status(created ? HttpStatus.CREATED : HttpStatus.OK).body(charge);
    }

    /**
     * Tells whether a key was charged.
     * @param name {@code primary} or {@code backup}
     * @param key the idempotency key
     * @return 200 with the charge, pending or succeeded; 404 when none is recorded under
     * the key, with {@code "processing": true} while a request with the key is still
     * being processed (a charge may yet be recorded) and {@code false} once the gateway
     * is finished with it; or 503
     */
    @GetMapping("/sim/gateways/{name}/charges/{key}")
    public ResponseEntity<?> find(@PathVariable String name, @PathVariable String key) {
        SimulatedGateway gateway = gateway(name);
        boolean fails = this.faults.fails(name);
        this.faults.delay(name);
        if (fails) {
            return unavailable(name);
        }
        // asked first: a charge is recorded before its key stops being processed
        boolean processing = gateway.isProcessing(key);
        Optional<ChargeRecord> charge = gateway.find(key);
        if (charge.isPresent()) {
            return ResponseEntity.ok(charge.get());
        }
        ProblemDetail notFound = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND,
                processing ? "No charge under key " + key + " yet: a request with it is still being processed"
                        : "No charge under key " + key);
        notFound.setProperty("processing", processing);
        return ResponseEntity.status(HttpStatus.NOT_FOUND).body(notFound);
    }

    /**
     * Lists every charge a gateway made; not subject to faults.
     * @param name {@code primary} or {@code backup}
     * @return the charges, oldest first
     */
    @GetMapping("/sim/gateways/{name}/charges")
    public List<ChargeRecord> charges(@PathVariable String name) {
        return gateway(name).charges();
    }

    private SimulatedGateway gateway(String name) {
        return this.gateways.find(name)
            .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No gateway " + name));
    }

    private static ResponseEntity<ProblemDetail> unavailable(String name) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
            .body(ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "Simulated failure of " + name));
    }

}
