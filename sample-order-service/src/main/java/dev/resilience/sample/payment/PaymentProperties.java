package dev.resilience.sample.payment;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the payments, under {@code sample.payment}.
 *
 * @param lookupWait how long a lookup asks a gateway again while it is still processing a
 * request for the order; then the charge is in doubt
 * @param lookupInterval the pause between two questions of such a lookup
 */
@ConfigurationProperties("sample.payment")
public record PaymentProperties(@DefaultValue("3s") Duration lookupWait,
        @DefaultValue("100ms") Duration lookupInterval) {
}
