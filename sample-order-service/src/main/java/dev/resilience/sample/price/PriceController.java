package dev.resilience.sample.price;

import java.time.Instant;
import java.util.Objects;

import dev.resilience.core.ExecutionResult;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /prices/eth}: the ETH price, fresh, the last good one, or the static
 * default.
 */
@RestController
public class PriceController {

    private final PriceService prices;

    /**
     * Creates the controller.
     * @param prices the price service
     */
    public PriceController(PriceService prices) {
        this.prices = prices;
    }

    /**
     * Returns the ETH price.
     * @return the price: fresh, the last good one ({@code stale: true} and
     * {@code staleSince}) when the oracle could not be read, or the static default
     * ({@code source: default}) when no price was read within the hour
     * @throws Exception what the call failed with, if even the default could not be
     * served
     */
    @GetMapping("/prices/eth")
    public EthPrice eth() throws Exception {
        ExecutionResult<EthPrice> result = this.prices.ethPrice();
        EthPrice price = Objects.requireNonNull(result.getOrThrow());
        Object staleSince = result.metadata().get(ExecutionResult.STALE_SINCE);
        return (staleSince instanceof Instant since) ? price.asStale(since) : price;
    }

}
