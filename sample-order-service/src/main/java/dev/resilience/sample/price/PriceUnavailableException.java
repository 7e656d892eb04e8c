package dev.resilience.sample.price;

/**
 * The oracle failed before any price was read from it, so there is no last good price.
 */
public class PriceUnavailableException extends RuntimeException {

    /**
     * Creates the exception.
     */
    public PriceUnavailableException() {
        super("The price oracle is unavailable and no earlier price is known");
    }

}
