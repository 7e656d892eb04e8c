package dev.resilience.http;

import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Adds the {@link ResilientExchangeFilterFunction} to every {@code WebClient} built from
 * Spring Boot's {@code WebClient.Builder}, as the first filter, so that the filters after
 * it run again on every attempt.
 */
public final class ResilientWebClientCustomizer implements WebClientCustomizer {

    private final ResilientExchangeFilterFunction filter;

    /**
     * Creates the customizer.
     * @param filter the filter to add
     */
    public ResilientWebClientCustomizer(ResilientExchangeFilterFunction filter) {
        this.filter = filter;
    }

    /**
     * Puts the filter first in the builder's filters, unless it is there already.
     * @param builder the builder to customize
     */
    @Override
    public void customize(WebClient.Builder builder) {
        builder.filters((filters) -> {
            if (!filters.contains(this.filter)) {
                filters.add(0, this.filter);
            }
        });
    }

}
