package dev.resilience.sample.price;

import java.math.BigDecimal;
import java.time.Instant;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.RateLimited;
import dev.resilience.core.ExecutionResult;
import dev.resilience.sample.Downstreams;

import org.springframework.stereotype.Service;

/**
 * Reads the ETH price from the oracle within its quota (the {@code price-oracle} rate
 * limiter) and behind the {@code price-oracle} breaker; when the oracle fails, the quota
 * is spent or the breaker is open, the starter serves the last good price (kept for an
 * hour by {@code @Fallback(lastGood)}), and, when there is none, the fallback
 * {@link #noPrice()}.
 */
@Service
public class PriceService {

    private final Downstreams downstreams;

    /**
     * Creates the service.
     * @param downstreams the HTTP client of the simulated downstreams
     */
    public PriceService(Downstreams downstreams) {
        this.downstreams = downstreams;
    }

    /**
     * Returns the current ETH price, in the account of the call: a fresh price, or the
     * last good one, which the envelope says with {@code fallbackName = "lastGood"} and
     * {@code staleSince}.
     * @return the account of the call; its error the oracle's failure (the fallback's
     * {@link PriceUnavailableException} suppressed) when the oracle fails and no price
     * was read within the hour
     */
    @RateLimited("price-oracle")
    @CircuitGuarded("price-oracle")
    @Fallback(value = "noPrice", lastGood = "1h")
    public ExecutionResult<EthPrice> ethPrice() {
        OracleQuote quote = this.downstreams.restClient()
            .get()
            .uri("/sim/oracle/prices/eth")
            .retrieve()
            .body(OracleQuote.class);
        if (quote == null) {
            throw new IllegalStateException("The oracle answered without a price");
        }
        return ExecutionResult.success(new EthPrice("ETH", quote.usd(), Instant.now(), false, null));
    }

    /**
     * The fallback after the last good price: there is none.
     * @return never
     * @throws PriceUnavailableException always
     */
    static ExecutionResult<EthPrice> noPrice() {
        throw new PriceUnavailableException();
    }

    private record OracleQuote(BigDecimal usd) {
    }

}
