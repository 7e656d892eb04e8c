package dev.resilience.sample.payment;

import java.time.Duration;
import java.util.Optional;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.sample.Downstreams;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;

/**
 * Charges orders through the gateways' HTTP API, and asks a gateway whether it holds a
 * charge. Every request for one order carries the same gateway idempotency key,
 * {@code order-<id>}, at either gateway and in every attempt, so that a gateway charges
 * an order at most once however often it is asked. Every charge request is written to the
 * {@link GatewayRequestLog} before it is sent.
 * <p>
 * Only a 402 is a decline. A 409 says the gateway is still processing an earlier request
 * with the key, whose charge may yet be made: in doubt, never a decline. A 200 whose
 * charge is {@linkplain GatewayCharge#pending() pending} is no charge yet either: the
 * gateway holds it and settles it later, so its request stays pending in the log. A
 * lookup that finds no charge proves none was made only once the gateway has finished
 * with the key, and one that finds a pending charge is no answer yet; until then it is
 * asked again, for {@link PaymentProperties#lookupWait()} at most.
 */
@Component
public class GatewayClient {

    private final Downstreams downstreams;

    private final GatewayRequestLog requests;

    private final PaymentProperties properties;

    /**
     * Creates the client.
     * @param downstreams the HTTP client of the simulated downstreams
     * @param requests the log of charge requests
     * @param properties how long and how often a lookup asks again
     */
    public GatewayClient(Downstreams downstreams, GatewayRequestLog requests, PaymentProperties properties) {
        this.downstreams = downstreams;
        this.requests = requests;
        this.properties = properties;
    }

    /**
     * Returns the idempotency key the gateways see for an order.
     * @param orderId the order
     * @return {@code order-<id>}
     */
    public static String gatewayKey(long orderId) {
        return "order-" + orderId;
    }

    /**
     * Charges an order.
     * @param gateway the gateway to charge
     * @param orderId the order
     * @param amountCents the amount, in cents
     * @param cardToken the card
     * @return the charge, new or made earlier under the order's key; pending when the
     * gateway has not settled it, and then its request stays pending in the log
     * @throws CardDeclinedException when the gateway answers 402
     * @throws ChargeInDoubtException when it answers 409: an earlier request with the
     * order's key is still being processed, and may charge
     * @throws GatewayUnavailableException when it answers another 4xx or a 5xx (it
     * charged nothing), or does not answer (it may have charged)
     */
    public GatewayCharge charge(Gateway gateway, long orderId, long amountCents, String cardToken) {
        String key = gatewayKey(orderId);
        long requestId = this.requests.sending(orderId, gateway, key);
        try {
            GatewayCharge charge = this.downstreams.restClient()
                .post()
                .uri("/sim/gateways/{gateway}/charges", gateway.id())
                .header("Idempotency-Key", key)
                .body(new ChargeBody(orderId, amountCents, cardToken))
                .retrieve()
                .body(GatewayCharge.class);
            if (charge == null) {
                throw new IllegalStateException("The " + gateway.id() + " gateway answered without a charge");
            }
            if (!charge.pending()) {
                this.requests.answered(requestId, RequestOutcome.CHARGED, charge.chargeId());
            }
            return charge;
        }
        catch (HttpClientErrorException ex) {
            if (ex.getStatusCode().isSameCodeAs(HttpStatus.PAYMENT_REQUIRED)) {
                this.requests.answered(requestId, RequestOutcome.DECLINED, null);
                throw new CardDeclinedException(orderId, gateway, ex.getStatusCode().value());
            }
            if (ex.getStatusCode().isSameCodeAs(HttpStatus.CONFLICT)) {
                // the request stays pending: the gateway may yet charge under the key
                throw new ChargeInDoubtException(orderId, gateway, ex);
            }
            this.requests.answered(requestId, RequestOutcome.NOT_CHARGED, null);
            throw new GatewayUnavailableException(gateway, "HTTP " + ex.getStatusCode().value(), ex);
        }
        catch (HttpServerErrorException ex) {
            this.requests.answered(requestId, RequestOutcome.NOT_CHARGED, null);
            throw new GatewayUnavailableException(gateway, "HTTP " + ex.getStatusCode().value(), ex);
        }
        catch (RestClientException ex) {
            throw new GatewayUnavailableException(gateway, "no answer (" + ex.getMessage() + ")", ex);
        }
    }

    /**
     * Charges an order through the backup gateway, which allows few requests at once: at
     * most {@code resilience.bulkhead.instances.backup-gateway.max-concurrent-calls} run
     * at a time, and a charge beyond them is refused at once with a
     * {@code BulkheadFullException}, before any request is sent, so that a primary outage
     * never piles up threads waiting on the backup.
     * @param orderId the order
     * @param amountCents the amount, in cents
     * @param cardToken the card
     * @return the charge, new or made earlier under the order's key
     * @see #charge(Gateway, long, long, String)
     */
    @Bulkhead("backup-gateway")
    public GatewayCharge chargeBackup(long orderId, long amountCents, String cardToken) {
        return charge(Gateway.BACKUP, orderId, amountCents, cardToken);
    }

    /**
     * Asks a gateway whether it holds a charge for an order, and settles the order's
     * pending requests to it with the answer. While the gateway is still processing a
     * request for the order, "no charge" is no answer yet, and neither is a charge it
     * holds pending: it is asked again until it has finished with the key and settled its
     * charge, for {@link PaymentProperties#lookupWait()} at most.
     * @param gateway the gateway to ask
     * @param orderId the order
     * @return the settled charge it holds, or empty when it holds none and has finished
     * with the key
     * @throws ChargeInDoubtException when it cannot answer, or is still processing the
     * key or holds its charge pending when the wait is over
     */
    public Optional<GatewayCharge> find(Gateway gateway, long orderId) {
        long deadline = System.nanoTime() + this.properties.lookupWait().toNanos();
        while (true) {
            Lookup lookup = lookup(gateway, orderId);
            GatewayCharge charge = lookup.charge();
            if (charge != null && !charge.pending()) {
                this.requests.settle(orderId, gateway, RequestOutcome.CHARGED, charge.chargeId());
                return Optional.of(charge);
            }
            if (charge == null && !lookup.processing()) {
                this.requests.settle(orderId, gateway, RequestOutcome.NOT_CHARGED, null);
                return Optional.empty();
            }
            Duration interval = this.properties.lookupInterval();
            if (System.nanoTime() + interval.toNanos() - deadline > 0) {
                String unsettled = (charge != null) ? "its charge still pending" : "still processing its key";
                throw new ChargeInDoubtException(orderId, gateway, new IllegalStateException(
                        unsettled + " after " + this.properties.lookupWait().toMillis() + "ms"));
            }
            try {
                Thread.sleep(interval.toMillis());
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new ChargeInDoubtException(orderId, gateway, ex);
            }
        }
    }

    private Lookup lookup(Gateway gateway, long orderId) {
        try {
            GatewayCharge charge = this.downstreams.restClient()
                .get()
                .uri("/sim/gateways/{gateway}/charges/{key}", gateway.id(), gatewayKey(orderId))
                .retrieve()
                .body(GatewayCharge.class);
            if (charge == null) {
                throw new IllegalStateException("The " + gateway.id() + " gateway answered without a charge");
            }
            return new Lookup(charge, false);
        }
        catch (RestClientResponseException ex) {
            if (ex.getStatusCode().isSameCodeAs(HttpStatus.NOT_FOUND)) {
                return new Lookup(null, stillProcessing(ex));
            }
            throw new ChargeInDoubtException(orderId, gateway, ex);
        }
        catch (RestClientException ex) {
            throw new ChargeInDoubtException(orderId, gateway, ex);
        }
    }

    /** A 404 proves nothing unless it says that the gateway has finished with the key. */
    private static boolean stillProcessing(RestClientResponseException notFound) {
        JsonNode body = notFound.getResponseBodyAs(JsonNode.class);
        return body == null || !body.path("processing").isBoolean() || body.path("processing").asBoolean();
    }

    /**
     * What a lookup found.
     *
     * @param charge the charge the gateway holds, if any
     * @param processing whether it is still processing a request with the key, when it
     * holds none
     */
    private record Lookup(@Nullable GatewayCharge charge, boolean processing) {
    }

    private record ChargeBody(long orderId, long amountCents, String cardToken) {
    }

}
