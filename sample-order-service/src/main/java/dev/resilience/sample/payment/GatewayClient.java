package dev.resilience.sample.payment;

import java.util.Optional;

import dev.resilience.sample.Downstreams;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;

/**
 * Charges orders through the gateways' HTTP API, and asks a gateway whether it holds a charge.
 * Every request for one order carries the same gateway idempotency key,
 * {@code order-<id>}, at either gateway and in every attempt, so that a gateway charges an
 * order at most once however often it is asked. Every charge request is written to the
 * {@link GatewayRequestLog} before it is sent.
 */
@Component
public class GatewayClient {

    private final Downstreams downstreams;

    private final GatewayRequestLog requests;

    /**
     * Creates the client.
     * @param downstreams the HTTP client of the simulated downstreams
     * @param requests the log of charge requests
     */
    public GatewayClient(Downstreams downstreams, GatewayRequestLog requests) {
        this.downstreams = downstreams;
        this.requests = requests;
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
     * @return the charge, new or made earlier under the order's key
     * @throws CardDeclinedException when the gateway answers 4xx
     * @throws GatewayUnavailableException when it answers 5xx or does not answer
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
            this.requests.answered(requestId, RequestOutcome.CHARGED, charge.chargeId());
            return charge;
        }
        catch (HttpClientErrorException ex) {
            this.requests.answered(requestId, RequestOutcome.DECLINED, null);
            throw new CardDeclinedException(orderId, gateway, ex.getStatusCode().value());
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
     * Asks a gateway whether it holds a charge for an order, and settles the order's pending
     * requests to it with the answer.
     * @param gateway the gateway to ask
     * @param orderId the order
     * @return the charge it holds, or empty when it holds none
     * @throws ChargeInDoubtException when it cannot answer
     */
    public Optional<GatewayCharge> find(Gateway gateway, long orderId) {
        try {
            GatewayCharge charge = this.downstreams.restClient()
                .get()
                .uri("/sim/gateways/{gateway}/charges/{key}", gateway.id(), gatewayKey(orderId))
                .retrieve()
                .body(GatewayCharge.class);
            if (charge == null) {
                throw new IllegalStateException("The " + gateway.id() + " gateway answered without a charge");
            }
            this.requests.settle(orderId, gateway, RequestOutcome.CHARGED, charge.chargeId());
            return Optional.of(charge);
        }
        catch (RestClientResponseException ex) {
            if (ex.getStatusCode().isSameCodeAs(HttpStatus.NOT_FOUND)) {
                this.requests.settle(orderId, gateway, RequestOutcome.NOT_CHARGED, null);
                return Optional.empty();
            }
            throw new ChargeInDoubtException(orderId, gateway, ex);
        }
        catch (RestClientException ex) {
            throw new ChargeInDoubtException(orderId, gateway, ex);
        }
    }

    private record ChargeBody(long orderId, long amountCents, String cardToken) {
    }
}
