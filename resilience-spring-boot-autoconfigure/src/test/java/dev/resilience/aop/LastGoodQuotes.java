package dev.resilience.aop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Fallback;
import dev.resilience.core.ExecutionResult;

/**
 * A quote service whose quotes keep their last good value, and that fails while it is
 * down.
 */
public class LastGoodQuotes {

    private final AtomicInteger versions = new AtomicInteger();

    private volatile boolean down;

    /**
     * Makes every call fail, or succeed again.
     * @param down whether calls fail
     */
    public void down(boolean down) {
        this.down = down;
    }

    /**
     * A quote, its last good value kept for an hour.
     * @param symbol the symbol
     * @return the quote, in the envelope of the call
     */
    @Fallback(lastGood = "1h")
    public ExecutionResult<Quote> quote(String symbol) {
        return ExecutionResult.success(produce(symbol));
    }

    /**
     * A quote, its last good value kept for an hour, then the default quote.
     * @param symbol the symbol
     * @return the quote, in the envelope of the call
     */
    @Fallback(value = "defaultQuote", lastGood = "1h")
    public ExecutionResult<Quote> quoteOrDefault(String symbol) {
        return ExecutionResult.success(produce(symbol));
    }

    /**
     * A quote, its last good value kept for an hour, returned as it is.
     * @param symbol the symbol
     * @return the quote
     */
    @Fallback(lastGood = "1h")
    public Quote plainQuote(String symbol) {
        return produce(symbol);
    }

    /**
     * A quote, asynchronously, its last good value kept for an hour.
     * @param symbol the symbol
     * @return the quote's future
     */
    @Fallback(lastGood = "1h")
    public CompletableFuture<Quote> asyncQuote(String symbol) {
        try {
            return CompletableFuture.completedFuture(produce(symbol));
        }
        catch (IllegalStateException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    ExecutionResult<Quote> defaultQuote(String symbol) {
        return ExecutionResult.success(new Quote(symbol, -1));
    }

    private Quote produce(String symbol) {
        if (this.down) {
            throw new IllegalStateException("quotes are down");
        }
        return new Quote(symbol, this.versions.incrementAndGet());
    }

    /**
     * A quote.
     *
     * @param symbol the symbol
     * @param version how many quotes the service produced, this one included; -1 for the
     * default
     */
    public record Quote(String symbol, int version) {
    }

}
