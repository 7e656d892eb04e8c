package dev.resilience.sample.payment;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Repository;

/**
 * Every charge request sent to a gateway, written before it is sent and completed when an
 * answer comes back. A request still {@link RequestOutcome#PENDING} is one whose fate is
 * unknown: the gateway may have charged (a timeout after it charged), so no other gateway
 * may charge that order until the first one has been asked.
 */
@Repository
public class GatewayRequestLog {

    private final JdbcClient jdbc;

    /**
     * Creates the log.
     * @param jdbc the client of the orders database
     */
    public GatewayRequestLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Records a request about to be sent, as {@link RequestOutcome#PENDING}.
     * @param orderId the order
     * @param gateway the gateway
     * @param gatewayKey the idempotency key sent to the gateway
     * @return the request's id
     */
    public long sending(long orderId, Gateway gateway, String gatewayKey) {
        GeneratedKeyHolder keys = new GeneratedKeyHolder();
        this.jdbc.sql("""
                INSERT INTO gateway_requests (order_id, gateway, gateway_key, outcome, sent_at)
                VALUES (?, ?, ?, ?, ?)""")
            .params(orderId, gateway.id(), gatewayKey, RequestOutcome.PENDING.name(), Instant.now())
            .update(keys, "id");
        return keys.getKeyAs(Long.class);
    }

    /**
     * Records the answer to a request.
     * @param requestId the request's id
     * @param outcome what the gateway answered
     * @param chargeId the charge id, when it charged
     */
    public void answered(long requestId, RequestOutcome outcome, @Nullable String chargeId) {
        this.jdbc.sql("UPDATE gateway_requests SET outcome = ?, charge_id = ? WHERE id = ?")
            .params(outcome.name(), chargeId, requestId)
            .update();
    }

    /**
     * Settles every pending request to a gateway for an order, once the gateway has said
     * whether it holds a charge.
     * @param orderId the order
     * @param gateway the gateway asked
     * @param outcome {@link RequestOutcome#CHARGED} or {@link RequestOutcome#NOT_CHARGED}
     * @param chargeId the charge it holds, if any
     */
    public void settle(long orderId, Gateway gateway, RequestOutcome outcome, @Nullable String chargeId) {
        this.jdbc.sql("""
                UPDATE gateway_requests SET outcome = ?, charge_id = ?
                WHERE order_id = ? AND gateway = ? AND outcome = 'PENDING'""")
            .params(outcome.name(), chargeId, orderId, gateway.id())
            .update();
    }

    /**
     * Tells whether a gateway may hold a charge for an order that we never heard of.
     * @param orderId the order
     * @param gateway the gateway
     * @return {@code true} when a request to it for this order is still pending
     */
    public boolean hasPending(long orderId, Gateway gateway) {
        return this.jdbc.sql("""
                SELECT COUNT(*) FROM gateway_requests
                WHERE order_id = ? AND gateway = ? AND outcome = 'PENDING'""")
            .params(orderId, gateway.id())
            .query(Long.class)
            .single() > 0;
    }

}
