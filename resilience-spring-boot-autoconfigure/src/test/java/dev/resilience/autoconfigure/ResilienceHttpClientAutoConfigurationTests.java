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
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

class ResilienceHttpClientAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceHttpClientAutoConfiguration.class));

    @Test
    void customizerIsAbsentByDefault() {
        this.runner.run((context) -> assertThat(context).doesNotHaveBean(ResilientRestClientCustomizer.class)
            .doesNotHaveBean(ResilientClientHttpRequestInterceptor.class));
    }

    @Test
    void customizerIsAbsentWhenDisabled() {
        this.runner.withPropertyValues("resilience.http-client.enabled=false")
            .run((context) -> assertThat(context).doesNotHaveBean(RestClientCustomizer.class));
    }

    @Test
    void whenEnabledTheCustomizerPutsTheInterceptorFirstAndTheRetryInstanceExistsFromTheStart() {
        this.runner.withPropertyValues("resilience.http-client.enabled=true").run((context) -> {
            assertThat(context).hasSingleBean(ResilientRestClientCustomizer.class);
            RestClient.Builder builder = RestClient.builder()
                .requestInterceptor((request, body, execution) -> execution.execute(request, body));
            context.getBean(ResilientRestClientCustomizer.class).customize(builder);
            builder.requestInterceptors((interceptors) -> assertThat(interceptors).hasSize(2)
                .first()
                .isSameAs(context.getBean(ResilientClientHttpRequestInterceptor.class)));
            assertThat(context.getBean(ResilienceRegistry.class).retryPolicies()).containsKey("http-client");
        });
    }

    @Test
    void whenEnabledTheWebClientCustomizerPutsTheFilterFirstOverThePipelinesTheRestClientShares() {
        this.runner.withPropertyValues("resilience.http-client.enabled=true").run((context) -> {
            assertThat(context).hasSingleBean(ResilientWebClientCustomizer.class)
                .hasSingleBean(HttpClientPipelines.class);
            WebClient.Builder builder = WebClient.builder().filter((request, next) -> next.exchange(request));
            context.getBean(ResilientWebClientCustomizer.class).customize(builder);
            context.getBean(ResilientWebClientCustomizer.class).customize(builder);
            builder.filters((filters) -> assertThat(filters).hasSize(2)
                .first()
                .isSameAs(context.getBean(ResilientExchangeFilterFunction.class)));
        });
    }

    @Test
    void withoutWebFluxOnlyTheRestClientIsCustomized() {
        this.runner.withPropertyValues("resilience.http-client.enabled=true")
            .withClassLoader(new FilteredClassLoader(WebClient.class))
            .run((context) -> assertThat(context).hasSingleBean(ResilientRestClientCustomizer.class)
                .doesNotHaveBean(ResilientWebClientCustomizer.class)
                .doesNotHaveBean(ResilientExchangeFilterFunction.class));
    }

    @Test
    void whenEnabledTheRestTemplateCustomizerPutsTheInterceptorTheRestClientUsesFirst() {
        this.runner.withPropertyValues("resilience.http-client.enabled=true").run((context) -> {
            assertThat(context).hasSingleBean(ResilientRestTemplateCustomizer.class)
                .hasSingleBean(ResilientClientHttpRequestInterceptor.class);
            RestTemplate template = new RestTemplate();
            template.getInterceptors().add((request, body, execution) -> execution.execute(request, body));
            context.getBean(ResilientRestTemplateCustomizer.class).customize(template);
            context.getBean(ResilientRestTemplateCustomizer.class).customize(template);
            assertThat(template.getInterceptors()).hasSize(2)
                .first()
                .isSameAs(context.getBean(ResilientClientHttpRequestInterceptor.class));
        });
    }

    @Test
    void withoutTheRestClientTheRestTemplateAndTheWebClientAreCustomized() {
        this.runner.withPropertyValues("resilience.http-client.enabled=true")
            .withClassLoader(new FilteredClassLoader(RestClient.class))
            .run((context) -> assertThat(context).hasSingleBean(ResilientWebClientCustomizer.class)
                .hasSingleBean(ResilientRestTemplateCustomizer.class)
                .doesNotHaveBean(ResilientRestClientCustomizer.class));
    }

    @Test
    void withoutBootsRestClientModuleOnlyTheWebClientIsCustomized() {
        this.runner.withPropertyValues("resilience.http-client.enabled=true")
            .withClassLoader(new FilteredClassLoader("org.springframework.boot.restclient"))
            .run((context) -> assertThat(context).hasSingleBean(ResilientWebClientCustomizer.class)
                .doesNotHaveBean(ResilientClientHttpRequestInterceptor.class)
                .doesNotHaveBean(ResilientRestTemplateCustomizer.class));
    }

    @Test
    void retryInstanceIsTheConfiguredOne() {
        this.runner.withPropertyValues("resilience.http-client.enabled=true", "resilience.http-client.retry=downstream")
            .run((context) -> assertThat(context.getBean(ResilienceRegistry.class).retryPolicies())
                .containsKey("downstream")
                .doesNotContainKey("http-client"));
    }

    @Test
    void blankRetryNameFailsTheStart() {
        this.runner.withPropertyValues("resilience.http-client.retry= ")
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .hasStackTraceContaining("http-client.retry"));
    }

    @Test
    void userDefinedInterceptorReplacesTheAutoConfiguredOne() {
        this.runner.withPropertyValues("resilience.http-client.enabled=true")
            .withUserConfiguration(OwnInterceptor.class)
            .run((context) -> assertThat(context.getBeansOfType(ResilientClientHttpRequestInterceptor.class))
                .containsOnlyKeys("ownInterceptor"));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnInterceptor {

        @Bean
        ResilientClientHttpRequestInterceptor ownInterceptor(ResiliencePolicies policies, TimeSource timeSource) {
            return new ResilientClientHttpRequestInterceptor(policies, timeSource,
                    new HttpClientSettings(ResilienceProperties.HttpClient.DEFAULT_RETRY, true,
                            ResilienceProperties.HttpClient.DEFAULT_MAX_HOSTS,
                            ResilienceProperties.HttpClient.DEFAULT_MAX_RETRY_AFTER));
        }

    }

}
