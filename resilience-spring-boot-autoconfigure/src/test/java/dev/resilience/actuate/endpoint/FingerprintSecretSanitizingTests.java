package dev.resilience.actuate.endpoint;

import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceEndpointsAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.actuate.autoconfigure.context.properties.ConfigurationPropertiesReportEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.env.EnvironmentEndpointAutoConfiguration;
import org.springframework.boot.actuate.context.properties.ConfigurationPropertiesReportEndpoint;
import org.springframework.boot.actuate.env.EnvironmentEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fingerprint secret is masked at {@code /actuator/configprops} and
 * {@code /actuator/env} even when they show values ({@code show-values=always} or
 * {@code when-authorized}), since Boot masks no key by itself once values are shown:
 * whoever reads it could test guessed arguments against the fingerprints in the store.
 * Other values stay shown.
 */
class FingerprintSecretSanitizingTests {

    private static final String SECRET = "a-fingerprint-secret-nobody-may-read-0123456789";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, EndpointAutoConfiguration.class,
                ConfigurationPropertiesReportEndpointAutoConfiguration.class,
                EnvironmentEndpointAutoConfiguration.class, ResilienceEndpointsAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withPropertyValues("management.endpoints.web.exposure.include=configprops,env",
                "management.endpoint.configprops.show-values=always", "management.endpoint.env.show-values=always",
                "resilience.idempotency.max-entries=1234");

    @Test
    void configpropsShowsTheSecretMaskedAndOtherValuesAsTheyAre() {
        this.contextRunner.withPropertyValues("resilience.idempotency.fingerprint-secret=" + SECRET).run((context) -> {
            String report = configprops(context);

            assertThat(report).doesNotContain(SECRET).contains("1234");
        });
    }

    @Test
    void envShowsTheSecretMaskedAndOtherValuesAsTheyAre() {
        this.contextRunner.withPropertyValues("resilience.idempotency.fingerprint-secret=" + SECRET).run((context) -> {
            String env = json(context.getBean(EnvironmentEndpoint.class).environment(null));

            assertThat(env).doesNotContain(SECRET).contains("resilience.idempotency.fingerprint-secret", "1234");
            assertThat(json(context.getBean(EnvironmentEndpoint.class)
                .environmentEntry("resilience.idempotency.fingerprint-secret"))).doesNotContain(SECRET);
        });
    }

    @Test
    void envMasksTheSecretGivenAsAnEnvironmentVariable() {
        this.contextRunner.withSystemProperties("RESILIENCE_IDEMPOTENCY_FINGERPRINTSECRET=" + SECRET).run((context) -> {
            assertThat(json(context.getBean(EnvironmentEndpoint.class).environment(null))).doesNotContain(SECRET)
                .contains("RESILIENCE_IDEMPOTENCY_FINGERPRINTSECRET");
            assertThat(configprops(context)).doesNotContain(SECRET);
        });
    }

    private static String configprops(AssertableApplicationContext context) {
        return json(context.getBean(ConfigurationPropertiesReportEndpoint.class).configurationProperties());
    }

    private static String json(Object descriptor) {
        return JsonMapper.builder().build().writeValueAsString(descriptor);
    }

}
