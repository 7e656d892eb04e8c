package dev.resilience.redis;

import java.time.Instant;

/**
 * What a test payment returns.
 *
 * @param orderId the order paid
 * @param amountCents the amount charged
 * @param paidAt when it was charged
 */
public record Receipt(String orderId, long amountCents, Instant paidAt) {
}
