package dev.resilience.redis;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.EncodedResult;
import dev.resilience.core.idempotency.IdempotencyResultNotStorableException;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import dev.resilience.core.idempotency.IdempotencyStore;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Both stores keep results alike: as data, so a replay is a fresh copy no caller can
 * change; bounded in bytes by {@code resilience.idempotency.max-result-size}; and without
 * the credentials of an HTTP response.
 */
class StoredResultsSafetyTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private ApplicationContextRunner contextRunner(String store) {
        return new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                            DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
            .withPropertyValues(redis.springProperties().toArray(String[]::new))
            .withPropertyValues(FingerprintSecret.PROPERTY)
            .withPropertyValues("resilience.idempotency.store=" + store)
            .withBean(Results.class);
    }

    @ParameterizedTest
    @ValueSource(strings = { "memory", "redis" })
    void replayChangedByItsCallerDoesNotChangeTheNextReplay(String store) {
        contextRunner(store).run((context) -> {
            Results results = context.getBean(Results.class);
            List<String> first = results.items("k-1");
            first.add("changed by the first caller");
            List<String> replay = results.items("k-1");
            assertThat(replay).containsExactly("a", "b");
            replay.add("changed by a replaying caller");
            replay.set(0, "z");

            assertThat(results.items("k-1")).containsExactly("a", "b");
            assertThat(results.runs()).isEqualTo(1);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "memory", "redis" })
    void resultOverTheSizeBoundIsRefusedWithAClearErrorAndItsKeyIsNeverRunAgain(String store) {
        contextRunner(store).withPropertyValues("resilience.idempotency.max-result-size=1KB").run((context) -> {
            IdempotencyStore idempotencyStore = context.getBean(IdempotencyStore.class);
            ClaimResult.Acquired claim = (ClaimResult.Acquired) idempotencyStore.claim("direct", "fp", LEASE);
            assertThatExceptionOfType(IdempotencyResultNotStorableException.class)
                .isThrownBy(() -> idempotencyStore.complete("direct", claim.ownerToken(), "x".repeat(2000),
                        String.class, Duration.ofMinutes(1)))
                .withMessageContaining("2002 bytes")
                .withMessageContaining("1KB")
                .withMessageContaining("resilience.idempotency.max-result-size");

            Results results = context.getBean(Results.class);
            assertThat(results.document("k-2", 2000)).hasSize(2000);
            for (int i = 0; i < 2; i++) {
                assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
                    .isThrownBy(() -> results.document("k-2", 2000))
                    .withMessageContaining("resilience.idempotency.max-result-size");
            }
            assertThat(results.runs()).isEqualTo(1);
            assertThat(results.document("k-3", 500)).hasSize(500);
            assertThat(results.document("k-3", 500)).hasSize(500);
            assertThat(results.runs()).isEqualTo(2);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "memory", "redis" })
    void replayedResponseKeepsStatusBodyAndContentHeadersButNoCredentials(String store) {
        contextRunner(store).run((context) -> {
            Results results = context.getBean(Results.class);
            ResponseEntity<String> first = results.login("k-4");
            assertThat(first.getHeaders().get(HttpHeaders.SET_COOKIE)).containsExactly("SESSION=s3cr3t; HttpOnly");
            assertThat(first.getHeaders().getFirst(HttpHeaders.AUTHORIZATION)).isEqualTo("Bearer t0ken");

            ResponseEntity<String> replay = results.login("k-4");

            assertThat(results.runs()).isEqualTo(1);
            assertThat(replay.getStatusCode().value()).isEqualTo(201);
            assertThat(replay.getBody()).isEqualTo("{\"session\":1}");
            HttpHeaders headers = replay.getHeaders();
            assertThat(headers.getLocation()).isEqualTo(URI.create("/sessions/1"));
            assertThat(headers.getContentType()).isEqualTo(MediaType.APPLICATION_JSON);
            assertThat(headers.getETag()).isEqualTo("\"v1\"");
            assertThat(headers.getFirst("X-Session-Count")).isEqualTo("1");
            for (String credential : List.of(HttpHeaders.SET_COOKIE, "Set-Cookie2", HttpHeaders.AUTHORIZATION,
                    HttpHeaders.PROXY_AUTHORIZATION, HttpHeaders.WWW_AUTHENTICATE, HttpHeaders.PROXY_AUTHENTICATE)) {
                assertThat(headers.containsHeader(credential)).as(credential).isFalse();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "memory", "redis" })
    void storeNeverHoldsTheCredentialsOfAResponse(String store) {
        contextRunner(store).run((context) -> {
            IdempotencyStore idempotencyStore = context.getBean(IdempotencyStore.class);
            ClaimResult.Acquired claim = (ClaimResult.Acquired) idempotencyStore.claim("direct-2", "fp", LEASE);
            java.lang.reflect.Type type = new ParameterizedTypeReference<ResponseEntity<String>>() {
            }.getType();
            idempotencyStore.complete("direct-2", claim.ownerToken(), Results.session(), type, Duration.ofMinutes(1));
            if ("redis".equals(store)) {
                assertThat(redis.command(
                        "HGET " + context.getEnvironment().getProperty("resilience.idempotency.key-prefix", "idem:")
                                + "direct-2 value"))
                    .doesNotContainIgnoringCase("s3cr3t")
                    .doesNotContainIgnoringCase("t0ken");
            }
            Object stored = ((ClaimResult.Completed) idempotencyStore.claim("direct-2", "fp", LEASE)).value();
            ResponseEntity<?> replay = (ResponseEntity<?>) ((stored instanceof EncodedResult encoded)
                    ? encoded.decode(type) : stored);
            assertThat(replay.getHeaders().containsHeader(HttpHeaders.SET_COOKIE)).isFalse();
        });
    }

    static class Results {

        private final AtomicInteger runs = new AtomicInteger();

        public int runs() {
            return this.runs.get();
        }

        @Idempotent(key = "#key")
        public List<String> items(String key) {
            this.runs.incrementAndGet();
            return new ArrayList<>(List.of("a", "b"));
        }

        @Idempotent(key = "#key")
        public String document(String key, int size) {
            this.runs.incrementAndGet();
            return "x".repeat(size);
        }

        @Idempotent(key = "#key")
        public ResponseEntity<String> login(String key) {
            this.runs.incrementAndGet();
            return session();
        }

        static ResponseEntity<String> session() {
            return ResponseEntity.created(URI.create("/sessions/1"))
                .contentType(MediaType.APPLICATION_JSON)
                .eTag("\"v1\"")
                .header(HttpHeaders.SET_COOKIE, "SESSION=s3cr3t; HttpOnly")
                .header("Set-Cookie2", "LEGACY=s3cr3t")
                .header(HttpHeaders.AUTHORIZATION, "Bearer t0ken")
                .header(HttpHeaders.PROXY_AUTHORIZATION, "Basic t0ken")
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"t0ken\"")
                .header(HttpHeaders.PROXY_AUTHENTICATE, "Basic realm=\"t0ken\"")
                .header("X-Session-Count", "1")
                .body("{\"session\":1}");
        }

    }

}
