package dev.resilience.http;

import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.web.client.RestClient;

/**
 * Adds the {@link ResilientClientHttpRequestInterceptor} to every {@code RestClient}
 * built from Spring Boot's {@code RestClient.Builder}, as the first interceptor, so that
 * the interceptors after it run again on every attempt.
 */
public final class ResilientRestClientCustomizer implements RestClientCustomizer {

    private final ResilientClientHttpRequestInterceptor interceptor;

    /**
     * Creates the customizer.
     * @param interceptor the interceptor to add
     */
    public ResilientRestClientCustomizer(ResilientClientHttpRequestInterceptor interceptor) {
        this.interceptor = interceptor;
    }

    /**
     * Puts the interceptor first in the builder's interceptors, unless it is there
     * already.
     * @param builder the builder to customize
     */
    @Override
    public void customize(RestClient.Builder builder) {
        builder.requestInterceptors((interceptors) -> {
            if (!interceptors.contains(this.interceptor)) {
                interceptors.add(0, this.interceptor);
            }
        });
    }

}
