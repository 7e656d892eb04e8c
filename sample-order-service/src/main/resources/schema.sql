CREATE TABLE orders (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    customer VARCHAR(100) NOT NULL,
    amount_cents BIGINT NOT NULL,
    card_token VARCHAR(100) NOT NULL,
    state VARCHAR(32) NOT NULL,
    payment_key VARCHAR(255),
    gateway VARCHAR(16),
    charge_id VARCHAR(64)
);

-- Every charge request sent to a gateway and what came back: PENDING until an answer
-- arrives, then CHARGED, NOT_CHARGED or DECLINED (402). A PENDING row means the gateway may
-- hold a charge we never heard of (no answer, or a 409: the key is still being processed), or
-- holds one it has not settled (a 200 whose charge is pending).
CREATE TABLE gateway_requests (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    order_id BIGINT NOT NULL,
    gateway VARCHAR(16) NOT NULL,
    gateway_key VARCHAR(64) NOT NULL,
    outcome VARCHAR(16) NOT NULL,
    charge_id VARCHAR(64),
    sent_at TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX gateway_requests_order ON gateway_requests (order_id, gateway, outcome);
