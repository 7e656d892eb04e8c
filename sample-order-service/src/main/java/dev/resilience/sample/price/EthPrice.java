package dev.resilience.sample.price;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * The ETH price served by {@code GET /prices/eth}.
 *
 * @param symbol {@code ETH}
 * @param usd the price in US dollars
 * @param fetchedAt when it was read from the oracle
 * @param stale whether it is the last good price, served because the oracle failed
 */
public record EthPrice(String symbol, BigDecimal usd, Instant fetchedAt, boolean stale) {

    /**
     * Returns this price marked stale.
     * @return the same price and fetch time, stale
     */
    public EthPrice asStale() {
        return new EthPrice(this.symbol, this.usd, this.fetchedAt, true);
    }
}
