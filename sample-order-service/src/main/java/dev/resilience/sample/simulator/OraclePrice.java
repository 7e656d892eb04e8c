package dev.resilience.sample.simulator;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A price quoted by the simulated oracle.
 *
 * @param symbol the asset, {@code ETH}
 * @param usd the price in US dollars
 * @param quotedAt when it was quoted
 */
public record OraclePrice(String symbol, BigDecimal usd, Instant quotedAt) {
}
