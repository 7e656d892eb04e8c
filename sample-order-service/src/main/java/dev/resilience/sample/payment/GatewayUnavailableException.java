package dev.resilience.sample.payment;

/**
 * A gateway did not charge: it answered 5xx, or did not answer at all. Transient, so
 * retried; whether it charged is tracked by the {@link GatewayRequestLog}, not by this
 * exception.
 */
public class GatewayUnavailableException extends RuntimeException {

    /**
     * Creates the exception.
     * @param gateway the gateway
     * @param detail what happened
     * @param cause the client's exception
     */
    public GatewayUnavailableException(Gateway gateway, String detail, Throwable cause) {
        super("The " + gateway.id() + " gateway is unavailable: " + detail, cause);
    }

}
