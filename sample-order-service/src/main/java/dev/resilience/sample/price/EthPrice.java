package dev.resilience.sample.price;

import java.math.BigDecimal;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The ETH price served by {@code GET /prices/eth}.
 *
 * @param symbol {@code ETH}
 * @param usd the price in US dollars
 * @param fetchedAt when it was read from the oracle
 * @param stale whether it is the last good price, served because the oracle failed
 * @param staleSince when the last good price was stored, from the call's
 * {@code ExecutionResult}; {@code null} for a fresh price
 */
public record EthPrice(String symbol, BigDecimal usd, Instant fetchedAt, boolean stale, @Nullable Instant staleSince) {

    /**
     * Returns this price marked stale.
     * @param since when it was stored as the last good price
     * @return the same price and fetch time, stale
     */
    public EthPrice asStale(Instant since) {
        return new EthPrice(this.symbol, this.usd, this.fetchedAt, true, since);
    }
}
