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
 * hour by {@code @Fallback(lastGood)}), and, when there is none, the static default price
 * of {@link #defaultPrice()}, as a price service that must answer does.
 */
@Service
public class PriceService {

    private final Downstreams downstreams;

    private final PriceProperties properties;

    /**
     * Creates the service.
     * @param downstreams the HTTP client of the simulated downstreams
     * @param properties the static default price
     */
    public PriceService(Downstreams downstreams, PriceProperties properties) {
        this.downstreams = downstreams;
        this.properties = properties;
    }

    /**
     * Returns the current ETH price, in the account of the call: a fresh price, the last
     * good one, which the envelope says with {@code fallbackName = "lastGood"} and
     * {@code staleSince}, or the static default ({@code fallbackName = "defaultPrice"}).
     * @return the account of the call
     */
    @RateLimited("price-oracle")
    @CircuitGuarded("price-oracle")
    @Fallback(value = "defaultPrice", lastGood = "1h")
    public ExecutionResult<EthPrice> ethPrice() {
        OracleQuote quote = this.downstreams.restClient()
            .get()
            .uri("/sim/oracle/prices/eth")
            .retrieve()
            .body(OracleQuote.class);
        if (quote == null) {
            throw new IllegalStateException("The oracle answered without a price");
        }
        return ExecutionResult.success(EthPrice.fromOracle(quote.usd(), Instant.now()));
    }

    /**
     * The fallback after the last good price: the static default.
     * @return the default price
     */
    ExecutionResult<EthPrice> defaultPrice() {
        return ExecutionResult.success(EthPrice.byDefault(this.properties.ethDefaultUsd()));
    }

    private record OracleQuote(BigDecimal usd) {
    }

}
