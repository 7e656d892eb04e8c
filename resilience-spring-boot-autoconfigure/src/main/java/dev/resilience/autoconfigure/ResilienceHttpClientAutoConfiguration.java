package dev.resilience.autoconfigure;

import dev.resilience.core.time.TimeSource;
import dev.resilience.http.HttpClientPipelines;
import dev.resilience.http.HttpClientSettings;
import dev.resilience.http.ResilientClientHttpRequestInterceptor;
import dev.resilience.http.ResilientExchangeFilterFunction;
import dev.resilience.http.ResilientRestClientCustomizer;
import dev.resilience.http.ResilientRestTemplateCustomizer;
import dev.resilience.http.ResilientWebClientCustomizer;
import dev.resilience.registry.ResiliencePolicies;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Auto-configures resilient outgoing calls when {@code resilience.http-client.enabled} is
 * true: every {@link RestClient} built from Spring Boot's {@code RestClient.Builder},
 * every {@link RestTemplate} built from its {@code RestTemplateBuilder}, and every
 * {@link WebClient} built from its {@code WebClient.Builder}, runs its requests through
 * the {@code resilience.http-client.retry} instance and a circuit breaker per host, each
 * request one {@code resilience.calls} observation of the application's
 * {@link ObservationRegistry}. The three clients share one {@link HttpClientPipelines},
 * and so the bound on hosts; the {@code RestClient}s and {@code RestTemplate}s share one
 * {@link ResilientClientHttpRequestInterceptor} too. Each bean backs off when the
 * application defines its own.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class)
@ConditionalOnClass(HttpHeaders.class)
@ConditionalOnProperty(name = "resilience.http-client.enabled", havingValue = "true")
public final class ResilienceHttpClientAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    HttpClientPipelines httpClientPipelines(ResiliencePolicies policies, TimeSource timeSource,
            ResilienceProperties properties, ObjectProvider<ObservationRegistry> observations) {
        ResilienceProperties.HttpClient settings = properties.getHttpClient();
        return new HttpClientPipelines(
                policies, timeSource, new HttpClientSettings(settings.getRetry(), settings.isCircuitBreakerPerHost(),
                        settings.getMaxHosts(), settings.getMaxRetryAfter()),
                observations.getIfAvailable(() -> ObservationRegistry.NOOP));
    }

    /**
     * The {@code RestClient} and {@code RestTemplate} customizers, which add one shared
     * interceptor, when Spring Boot's {@code spring-boot-restclient} module is present.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ RestClientCustomizer.class, RestTemplateCustomizer.class })
    static class BlockingClientsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ResilientClientHttpRequestInterceptor resilientClientHttpRequestInterceptor(HttpClientPipelines pipelines) {
            return new ResilientClientHttpRequestInterceptor(pipelines);
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(RestClient.class)
        static class RestClientConfiguration {

            @Bean
            @ConditionalOnMissingBean
            ResilientRestClientCustomizer resilientRestClientCustomizer(
                    ResilientClientHttpRequestInterceptor interceptor) {
                return new ResilientRestClientCustomizer(interceptor);
            }

        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(RestTemplate.class)
        static class RestTemplateConfiguration {

            @Bean
            @ConditionalOnMissingBean
            ResilientRestTemplateCustomizer resilientRestTemplateCustomizer(
                    ResilientClientHttpRequestInterceptor interceptor) {
                return new ResilientRestTemplateCustomizer(interceptor);
            }

        }

    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ WebClient.class, WebClientCustomizer.class })
    static class WebClientConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ResilientExchangeFilterFunction resilientExchangeFilterFunction(HttpClientPipelines pipelines) {
            return new ResilientExchangeFilterFunction(pipelines);
        }

        @Bean
        @ConditionalOnMissingBean
        ResilientWebClientCustomizer resilientWebClientCustomizer(ResilientExchangeFilterFunction filter) {
            return new ResilientWebClientCustomizer(filter);
        }

    }

}
