package dev.resilience.sample.price;

import java.math.BigDecimal;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The ETH price served by {@code GET /prices/eth}.
 *
 * @param symbol {@code ETH}
 * @param usd the price in US dollars
 * @param fetchedAt when it was read from the oracle; {@code null} for the static default
 * @param stale whether it is not a fresh price: the last good one, or the static default
 * @param staleSince when the last good price was stored, from the call's
 * {@code ExecutionResult}; {@code null} for a fresh price and for the static default
 * @param source where it comes from: {@code oracle}, {@code last-good} or {@code default}
 */
public record EthPrice(String symbol, BigDecimal usd, @Nullable Instant fetchedAt, boolean stale,
        @Nullable Instant staleSince, String source) {

    /**
     * Returns a fresh price read from the oracle.
     * @param usd the price in US dollars
     * @param fetchedAt when it was read
     * @return the price
     */
    public static EthPrice fromOracle(BigDecimal usd, Instant fetchedAt) {
        return new EthPrice("ETH", usd, fetchedAt, false, null, "oracle");
    }

    /**
     * Returns the static default price.
     * @param usd the price in US dollars
     * @return the price, stale, with no fetch time
     */
    public static EthPrice byDefault(BigDecimal usd) {
        return new EthPrice("ETH", usd, null, true, null, "default");
    }

    /**
     * Returns this price marked as the last good one.
     * @param since when it was stored as the last good price
     * @return the same price and fetch time, stale
     */
    public EthPrice asStale(Instant since) {
        return new EthPrice(this.symbol, this.usd, this.fetchedAt, true, since, "last-good");
    }

}
