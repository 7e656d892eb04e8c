package dev.resilience.sample;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default profile needs no Redis: health is UP, with the breakers' contributor and no
 * Redis one.
 */
@SampleApplicationTests
class ApplicationHealthTests {

    @LocalServerPort
    private int port;

    @Test
    void healthIsUpWithoutRedis() {
        JsonNode health = new SampleClient(this.port).get("/actuator/health");
        assertThat(health.get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").has("circuitBreakers")).isTrue();
        assertThat(health.get("components").has("redis")).isFalse();
    }

}
