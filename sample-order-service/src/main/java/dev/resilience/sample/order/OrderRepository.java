package dev.resilience.sample.order;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Repository;

/**
 * Orders in the database, through {@link JdbcClient}. Every state change is one
 * conditional update, so that concurrent payments of one order cannot both start.
 */
@Repository
public class OrderRepository {

    private static final RowMapper<Order> ROW_MAPPER = (rs, rowNum) -> new Order(rs.getLong("id"),
            rs.getString("customer"), rs.getLong("amount_cents"), rs.getString("card_token"),
            OrderState.valueOf(rs.getString("state")), rs.getString("payment_key"), rs.getString("gateway"),
            rs.getString("charge_id"));

    private final JdbcClient jdbc;

    /**
     * Creates the repository.
     * @param jdbc the client of the orders database
     */
    public OrderRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Stores a new order in state {@link OrderState#NEW}.
     * @param customer who ordered
     * @param amountCents the amount in cents
     * @param cardToken the card token
     * @return the stored order
     */
    public Order create(String customer, long amountCents, String cardToken) {
        GeneratedKeyHolder keys = new GeneratedKeyHolder();
        this.jdbc.sql("INSERT INTO orders (customer, amount_cents, card_token, state) VALUES (?, ?, ?, 'NEW')")
            .params(customer, amountCents, cardToken)
            .update(keys, "id");
        return new Order(keys.getKeyAs(Long.class), customer, amountCents, cardToken, OrderState.NEW, null, null, null);
    }

    /**
     * Finds an order.
     * @param id the order id
     * @return the order, or empty when there is none with this id
     */
    public Optional<Order> find(long id) {
        return this.jdbc.sql("SELECT * FROM orders WHERE id = ?").param(id).query(ROW_MAPPER).optional();
    }

    /**
     * Moves a payable order to {@link OrderState#PAYMENT_PENDING} under a payment key; an
     * order already pending under the same key stays so, which lets the retries and
     * fallbacks of one payment pass while a payment under another key is kept out.
     * @param id the order id
     * @param paymentKey the payment's idempotency key
     * @return the order after the update; its state says whether the payment may go on
     */
    public Optional<Order> startPayment(long id, String paymentKey) {
        this.jdbc.sql("""
                UPDATE orders SET state = 'PAYMENT_PENDING', payment_key = :key
                WHERE id = :id AND (state IN ('NEW', 'PAYMENT_DEFERRED', 'PAYMENT_IN_DOUBT')
                    OR (state = 'PAYMENT_PENDING' AND payment_key = :key))""")
            .param("id", id)
            .param("key", paymentKey)
            .update();
        return find(id);
    }

    /**
     * Records the charge that paid an order.
     * @param id the order id
     * @param gateway the gateway's name
     * @param chargeId the gateway's charge id
     * @return the paid order
     */
    public Order markPaid(long id, String gateway, String chargeId) {
        this.jdbc.sql("UPDATE orders SET state = 'PAID', gateway = ?, charge_id = ? WHERE id = ?")
            .params(gateway, chargeId, id)
            .update();
        return find(id).orElseThrow();
    }

    /**
     * Moves a pending order to an unpaid outcome.
     * @param id the order id
     * @param state {@link OrderState#PAYMENT_DEFERRED},
     * {@link OrderState#PAYMENT_DECLINED} or {@link OrderState#PAYMENT_IN_DOUBT}
     * @return the order
     */
    public Order markUnpaid(long id, OrderState state) {
        this.jdbc.sql("UPDATE orders SET state = ? WHERE id = ? AND state = 'PAYMENT_PENDING'")
            .params(state.name(), id)
            .update();
        return find(id).orElseThrow();
    }

    /**
     * Counts the orders in each state.
     * @return the number of orders per state, for the states that have any
     */
    public Map<String, Long> countByState() {
        Map<String, Long> counts = new LinkedHashMap<>();
        this.jdbc.sql("SELECT state, COUNT(*) AS n FROM orders GROUP BY state ORDER BY state").query((rs) -> {
            counts.put(rs.getString("state"), rs.getLong("n"));
        });
        return counts;
    }

}
