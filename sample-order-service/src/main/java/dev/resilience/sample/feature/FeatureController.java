package dev.resilience.sample.feature;

import java.util.Map;

import dev.resilience.feature.CircuitBreakers;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /features}: which features a client should offer now. ETH checkout needs a
 * price from the oracle, so it is greyed out while the {@code price-oracle} breaker would
 * reject a call, instead of letting a customer start a checkout that can only end on a
 * stale price or an error. Card checkout is not listed: its payments fall back to the
 * backup gateway and then to a deferred payment, so it is always offered.
 */
@RestController
public class FeatureController {

    /** The breaker of the price oracle, named by {@code PriceService.ethPrice}. */
    private static final String PRICE_ORACLE = "price-oracle";

    private final CircuitBreakers circuitBreakers;

    /**
     * Creates the controller.
     * @param circuitBreakers the application's breakers, the bean SpEL knows as
     * {@code @circuitBreakers}
     */
    public FeatureController(CircuitBreakers circuitBreakers) {
        this.circuitBreakers = circuitBreakers;
    }

    /**
     * Returns every feature with whether it is available and the state of the breaker it
     * depends on.
     * @return the features
     */
    @GetMapping("/features")
    public Features features() {
        return new Features(Map.of("eth-checkout", dependingOn(PRICE_ORACLE)));
    }

    private Feature dependingOn(String breaker) {
        return new Feature(this.circuitBreakers.allows(breaker), breaker, this.circuitBreakers.state(breaker).name());
    }

}
