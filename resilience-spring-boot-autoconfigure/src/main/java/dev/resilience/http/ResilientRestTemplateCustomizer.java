package dev.resilience.http;

import java.util.List;

import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestTemplate;

/**
 * Adds the {@link ResilientClientHttpRequestInterceptor} to every {@code RestTemplate}
 * built from Spring Boot's {@code RestTemplateBuilder}, as the first interceptor, so that
 * the interceptors after it run again on every attempt. The interceptor is the one the
 * {@code RestClient}s use, over the same {@link HttpClientPipelines}: the same
 * {@code resilience.http-client} rules, breakers and bound on hosts.
 */
public final class ResilientRestTemplateCustomizer implements RestTemplateCustomizer {

    private final ResilientClientHttpRequestInterceptor interceptor;

    /**
     * Creates the customizer.
     * @param interceptor the interceptor to add
     */
    public ResilientRestTemplateCustomizer(ResilientClientHttpRequestInterceptor interceptor) {
        this.interceptor = interceptor;
    }

    /**
     * Puts the interceptor first in the template's interceptors, unless it is there
     * already.
     * @param restTemplate the template to customize
     */
    @Override
    public void customize(RestTemplate restTemplate) {
        List<ClientHttpRequestInterceptor> interceptors = restTemplate.getInterceptors();
        if (!interceptors.contains(this.interceptor)) {
            interceptors.add(0, this.interceptor);
        }
    }

}
