package dev.resilience.sample.price;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.sample.Downstreams;

import org.springframework.stereotype.Service;

/**
 * Reads the ETH price from the oracle behind the {@code price-oracle} breaker; when the
 * oracle fails or the breaker is open, serves the last good price, marked stale.
 */
@Service
public class PriceService {

    private final Downstreams downstreams;

    private final AtomicReference<EthPrice> lastGood = new AtomicReference<>();

    /**
     * Creates the service.
     * @param downstreams the HTTP client of the simulated downstreams
     */
    public PriceService(Downstreams downstreams) {
        this.downstreams = downstreams;
    }

    /**
     * Returns the current ETH price.
     * @return a fresh price, or the last good one marked stale
     * @throws PriceUnavailableException (suppressed by the oracle's failure) when the
     * oracle fails and no price was ever read
     */
    @CircuitGuarded("price-oracle")
    @Fallback("lastGoodPrice")
    public EthPrice ethPrice() {
        OracleQuote quote = this.downstreams.restClient()
            .get()
            .uri("/sim/oracle/prices/eth")
            .retrieve()
            .body(OracleQuote.class);
        if (quote == null) {
            throw new IllegalStateException("The oracle answered without a price");
        }
        EthPrice price = new EthPrice("ETH", quote.usd(), Instant.now(), false);
        this.lastGood.set(price);
        return price;
    }

    /**
     * The fallback: the last good price, marked stale.
     */
    EthPrice lastGoodPrice() {
        EthPrice last = this.lastGood.get();
        if (last == null) {
            throw new PriceUnavailableException();
        }
        return last.asStale();
    }

    private record OracleQuote(BigDecimal usd) {
    }

}
