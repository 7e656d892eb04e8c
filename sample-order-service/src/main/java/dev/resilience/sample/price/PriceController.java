package dev.resilience.sample.price;

import java.time.Instant;
import java.util.Objects;

import dev.resilience.core.ExecutionResult;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClientException;

/**
 * {@code GET /prices/eth}: the ETH price, fresh or stale; 503 when there is none.
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
     * @return the price, with {@code stale: true} and {@code staleSince} when the oracle
     * could not be read and the last good price was served
     * @throws Exception the oracle's failure when no price is known
     */
    @GetMapping("/prices/eth")
    public EthPrice eth() throws Exception {
        ExecutionResult<EthPrice> result = this.prices.ethPrice();
        EthPrice price = Objects.requireNonNull(result.getOrThrow());
        Object staleSince = result.metadata().get(ExecutionResult.STALE_SINCE);
        return (staleSince instanceof Instant since) ? price.asStale(since) : price;
    }

    /**
     * Answers 503 when the oracle failed and no earlier price is known.
     * @param ex the oracle's failure
     * @return the problem
     */
    @ExceptionHandler({ RestClientException.class, CallNotPermittedException.class })
    public ProblemDetail noPrice(RuntimeException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "No ETH price: " + ex.getMessage());
    }

}
