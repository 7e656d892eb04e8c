package dev.resilience.aop;

import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fingerprints are HMAC-SHA256 digests keyed by
 * {@code resilience.idempotency.fingerprint-secret}: whoever reads a fingerprint from the
 * store cannot test guesses of the arguments against it without the secret. A store other
 * than the in-memory one needs the secret; the in-memory store makes one per start.
 */
class KeyedFingerprintTests {

    private static final String CARD = "4111111111111111";

    private static final String SECRET_A = "a-secret-of-at-least-thirty-two-characters";

    private static final String SECRET_B = "another-secret-of-at-least-thirty-two-chars";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(Payments.class);

    @Test
    void sameCardNumberGivesDifferentFingerprintsUnderTwoSecretsAndEqualOnesUnderOne() {
        String underA = fingerprintOfCharge(SECRET_A);
        String underB = fingerprintOfCharge(SECRET_B);

        assertThat(underA).isNotEqualTo(underB);
        assertThat(fingerprintOfCharge(SECRET_A)).isEqualTo(underA);
    }

    @Test
    void storedFingerprintIsNotThePlainDigestOfTheArgumentsJson() throws Exception {
        String fingerprint = fingerprintOfCharge(SECRET_A);
        String json = JsonMapper.builder().build().writeValueAsString(new Card(CARD));
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");

        assertThat(fingerprint).doesNotContain(CARD)
            .isNotEqualTo(HexFormat.of().formatHex(sha256.digest(json.getBytes(StandardCharsets.UTF_8))))
            .isNotEqualTo(HexFormat.of().formatHex(sha256.digest((json + '\u001f').getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void fingerprintOfValuesIsTheDefaultFingerprintOfAMethodTakingThemAsArguments() {
        assertThat(IdempotencyFingerprints.withSecret(SECRET_A).fingerprint("key-1", new Card(CARD)))
            .isEqualTo(fingerprintOfCharge(SECRET_A))
            .isNotEqualTo(
                    IdempotencyFingerprints.withSecret(SECRET_A).fingerprint("key-1", new Card("4000000000000002")));
    }

    @Test
    void fingerprintExpressionsAreKeyedToo() {
        String underA = fingerprintOfRefund(SECRET_A);

        assertThat(underA).isNotEqualTo(fingerprintOfRefund(SECRET_B));
        assertThat(fingerprintOfRefund(SECRET_A)).isEqualTo(underA);
    }

    @Test
    void userDefinedStoreWithoutASecretFailsTheStartSayingHowToSetIt() {
        this.contextRunner.withBean(CapturingStore.class).run((context) -> {
            assertThat(context).hasFailed();
            assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("resilience.idempotency.fingerprint-secret", "CapturingStore", "at least 32");
        });
    }

    @Test
    void memoryStoreWithoutASecretStartsWithARandomSecretPerStart() {
        this.contextRunner.run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Payments.class).charge("key-1", new Card(CARD))).isEqualTo("charge-1");
        });
    }

    @Test
    void secretShorterThan32CharactersFailsTheStart() {
        this.contextRunner.withPropertyValues("resilience.idempotency.fingerprint-secret=too-short").run((context) -> {
            assertThat(context).hasFailed();
            assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("resilience.idempotency.fingerprint-secret", "at least 32")
                .doesNotContain("too-short");
        });
    }

    private String fingerprintOfCharge(String secret) {
        List<String> fingerprints = new ArrayList<>();
        this.contextRunner.withBean(CapturingStore.class)
            .withPropertyValues("resilience.idempotency.fingerprint-secret=" + secret)
            .run((context) -> {
                context.getBean(Payments.class).charge("key-1", new Card(CARD));
                fingerprints.addAll(context.getBean(CapturingStore.class).fingerprints);
            });
        assertThat(fingerprints).hasSize(1);
        return fingerprints.get(0);
    }

    private String fingerprintOfRefund(String secret) {
        List<String> fingerprints = new ArrayList<>();
        this.contextRunner.withBean(CapturingStore.class)
            .withPropertyValues("resilience.idempotency.fingerprint-secret=" + secret)
            .run((context) -> {
                context.getBean(Payments.class).refund("key-1", new Card(CARD));
                fingerprints.addAll(context.getBean(CapturingStore.class).fingerprints);
            });
        assertThat(fingerprints).hasSize(1);
        return fingerprints.get(0);
    }

    static class Payments {

        private int runs;

        @Idempotent(key = "#key")
        public String charge(String key, Card card) {
            return "charge-" + (++this.runs);
        }

        @Idempotent(key = "#key", fingerprint = "#card.number()")
        public String refund(String key, Card card) {
            return "refund-" + (++this.runs);
        }

    }

    public record Card(String number) {
    }

    static final class CapturingStore implements IdempotencyStore {

        private final IdempotencyStore delegate = new InMemoryIdempotencyStore(new VirtualTimeSource());

        final List<String> fingerprints = new ArrayList<>();

        @Override
        public ClaimResult claim(String key, String fingerprint, Duration lease) {
            this.fingerprints.add(fingerprint);
            return this.delegate.claim(key, fingerprint, lease);
        }

        @Override
        public boolean complete(String key, String ownerToken, @Nullable Object value, Duration ttl) {
            return this.delegate.complete(key, ownerToken, value, ttl);
        }

        @Override
        public boolean complete(String key, String ownerToken, @Nullable Object value, Type type, Duration ttl) {
            return this.delegate.complete(key, ownerToken, value, type, ttl);
        }

        @Override
        public boolean release(String key, String ownerToken) {
            return this.delegate.release(key, ownerToken);
        }

    }

}
