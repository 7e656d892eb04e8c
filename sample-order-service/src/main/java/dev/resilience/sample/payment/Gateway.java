package dev.resilience.sample.payment;

import java.util.Locale;

/**
 * The payment gateways, in the order they are tried.
 */
public enum Gateway {

    /** Tried first, with retries and the {@code payment-gateway} breaker. */
    PRIMARY,

    /** The fallback when the primary fails. */
    BACKUP;

    /**
     * Returns the gateway's name in URLs, records and responses.
     * @return {@code primary} or {@code backup}
     */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Returns the other gateway.
     * @return the backup for the primary, the primary for the backup
     */
    public Gateway other() {
        return (this == PRIMARY) ? BACKUP : PRIMARY;
    }

}
