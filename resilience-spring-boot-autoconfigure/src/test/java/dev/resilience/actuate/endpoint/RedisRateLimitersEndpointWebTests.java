package dev.resilience.actuate.endpoint;

import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.resilience.annotation.RateLimited;
import dev.resilience.redis.RedisServer;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/ratelimiters} and the rate limiter meters of a limiter whose store is
 * Redis: its store, this instance's counts, the permits free as of Redis's latest answer,
 * and the errors of the store, which a stopped Redis adds to.
 */
@SpringBootTest(classes = RedisRateLimitersEndpointWebTests.TestApplication.class,
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=ratelimiters",
                "management.health.redis.enabled=false", "spring.application.name=catalog-service" })
@DirtiesContext
class RedisRateLimitersEndpointWebTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @LocalServerPort
    private int port;

    @Autowired
    private Catalog catalog;

    @Autowired
    private MeterRegistry meters;

    @DynamicPropertySource
    static void redisProperties(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", redis::port);
        registry.add("spring.data.redis.timeout", () -> "500ms");
    }

    @Test
    void aRateLimiterInRedisReportsItsStoreItsFiguresAndNoStoreError() {
        for (int i = 0; i < 3; i++) {
            this.catalog.search("lamp");
        }

        ResponseEntity<String> response = new Http(this.port).get("/actuator/ratelimiters");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        System.out.println("FIGURES GET /actuator/ratelimiters " + response.getBody());
        assertThat(JsonPath.parse(response.getBody()).read("$.rateLimiters.catalog", Map.class))
            .containsExactlyInAnyOrderEntriesOf(Map.of("limit", 5, "period", "1h", "timeout", "0s", "store", "redis",
                    "availablePermits", 2, "permittedCalls", 3, "rejectedCalls", 0, "storeErrors", 0));
        assertThat(redis.template().hasKey("catalog-service:ratelimit:{catalog}")).isTrue();
        assertThat(this.meters.get("resilience.ratelimiter.calls")
            .tags("name", "catalog", "outcome", "permitted")
            .functionCounter()
            .count()).isEqualTo(3);
        assertThat(this.meters.get("resilience.ratelimiter.calls")
            .tags("name", "catalog", "outcome", "rejected")
            .functionCounter()
            .count()).isZero();
        assertThat(this.meters.get("resilience.ratelimiter.available").tags("name", "catalog").gauge().value())
            .isEqualTo(2);
    }

    @Test
    void aStoppedRedisIsCountedAsAStoreErrorOfTheLimiterWhileTheInstanceJudgesTheCall() {
        redis.stop();
        try {
            assertThat(this.catalog.browse("desk")).isEqualTo("browsed desk");
        }
        finally {
            redis.start();
        }

        ResponseEntity<String> response = new Http(this.port).get("/actuator/ratelimiters");

        assertThat(JsonPath.parse(response.getBody()).read("$.rateLimiters.browse", Map.class))
            .containsEntry("store", "redis")
            .containsEntry("permittedCalls", 1)
            .containsEntry("storeErrors", 1);
        assertThat(this.meters.get("resilience.ratelimiter.calls")
            .tags("name", "browse", "outcome", "permitted")
            .functionCounter()
            .count()).isOne();
    }

    static class Catalog {

        @RateLimited(name = "catalog", limit = 5, period = "1h", store = "redis")
        public String search(String term) {
            return "found " + term;
        }

        @RateLimited(name = "browse", limit = 5, period = "1h", store = "redis")
        public String browse(String term) {
            return "browsed " + term;
        }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        Catalog catalog() {
            return new Catalog();
        }

    }

}
