package dev.resilience.autoconfigure;

import dev.resilience.core.time.TimeSource;
import dev.resilience.http.HttpClientSettings;
import dev.resilience.http.ResilientClientHttpRequestInterceptor;
import dev.resilience.http.ResilientRestClientCustomizer;
import dev.resilience.registry.ResiliencePolicies;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.web.client.RestClient;

/**
 * Auto-configures resilient outgoing calls when {@code resilience.http-client.enabled} is
 * true: every {@link RestClient} built from Spring Boot's {@code RestClient.Builder} runs
 * its requests through the {@code resilience.http-client.retry} instance and a circuit
 * breaker per host. Each bean backs off when the application defines its own.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class)
@ConditionalOnClass({ RestClient.class, RestClientCustomizer.class })
@ConditionalOnProperty(name = "resilience.http-client.enabled", havingValue = "true")
public final class ResilienceHttpClientAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ResilientClientHttpRequestInterceptor resilientClientHttpRequestInterceptor(ResiliencePolicies policies,
            TimeSource timeSource, ResilienceProperties properties) {
        ResilienceProperties.HttpClient settings = properties.getHttpClient();
        return new ResilientClientHttpRequestInterceptor(policies, timeSource,
                new HttpClientSettings(settings.getRetry(), settings.isCircuitBreakerPerHost(), settings.getMaxHosts(),
                        settings.getMaxRetryAfter()));
    }

    @Bean
    @ConditionalOnMissingBean
    ResilientRestClientCustomizer resilientRestClientCustomizer(ResilientClientHttpRequestInterceptor interceptor) {
        return new ResilientRestClientCustomizer(interceptor);
    }

}
