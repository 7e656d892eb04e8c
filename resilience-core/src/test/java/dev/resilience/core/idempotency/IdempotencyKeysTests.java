package dev.resilience.core.idempotency;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class IdempotencyKeysTests {

    @Test
    void nullKeyIsRefusedAsMissing() {
        assertThatExceptionOfType(IdempotencyKeyException.class).isThrownBy(() -> IdempotencyKeys.validate(null))
            .withMessageContaining("missing");
    }

    @Test
    void emptyKeyIsRefused() {
        assertThatExceptionOfType(IdempotencyKeyException.class).isThrownBy(() -> IdempotencyKeys.validate(""))
            .withMessageContaining("empty");
    }

    @Test
    void blankKeyIsRefused() {
        assertThatExceptionOfType(IdempotencyKeyException.class).isThrownBy(() -> IdempotencyKeys.validate("   "))
            .withMessageContaining("blank");
    }

    @Test
    void keyOf256CharactersIsRefusedWithoutEchoingIt() {
        String key = "k".repeat(256);

        assertThatExceptionOfType(IdempotencyKeyException.class).isThrownBy(() -> IdempotencyKeys.validate(key))
            .withMessageContaining("256")
            .withMessageContaining("255")
            .withMessageNotContaining("k".repeat(41))
            .satisfies((ex) -> assertThat(ex.getMessage()).hasSizeLessThan(120));
    }

    @Test
    void keyOf255CharactersIsAccepted() {
        String key = "k".repeat(255);

        assertThat(IdempotencyKeys.validate(key)).isEqualTo(key);
    }

    @Test
    void nonAsciiLettersAreAccepted() {
        assertThat(IdempotencyKeys.validate("commande-été-東京-Ω")).isEqualTo("commande-été-東京-Ω");
    }

    @Test
    void keyIsReturnedThroughToString() {
        assertThat(IdempotencyKeys.validate(42L)).isEqualTo("42");
    }

    @Test
    void controlCharactersAreRefusedAndNotEchoed() {
        for (String key : new String[] { "a\nb", "a\tb", "a\u0000b", "a\u007fb", "a\u0085b" }) {
            assertThatExceptionOfType(IdempotencyKeyException.class).isThrownBy(() -> IdempotencyKeys.validate(key))
                .withMessageContaining("control character at index 1")
                .withMessageContaining("'a?b'");
        }
    }

    @Test
    void exceptionsQuoteAtMostFortyCharactersOfTheKey() {
        String key = "x".repeat(200);
        Instant leaseExpiresAt = Instant.parse("2026-01-01T00:00:30Z");

        IdempotencyInProgressException inProgress = new IdempotencyInProgressException(key, leaseExpiresAt);
        IdempotencyKeyMismatchException mismatch = new IdempotencyKeyMismatchException(key);

        assertThat(inProgress.leaseExpiresAt()).isEqualTo(leaseExpiresAt);
        assertThat(inProgress).hasMessageContaining("'" + "x".repeat(40) + "...'")
            .hasMessageContaining("in progress")
            .hasMessageContaining("2026-01-01T00:00:30Z");
        assertThat(mismatch).hasMessageContaining("'" + "x".repeat(40) + "...'")
            .hasMessageContaining("another fingerprint");
        assertThat(new IdempotencyKeyMismatchException("order-1")).hasMessageContaining("'order-1'");
        assertThat(new IdempotencyStoreException("down", new IllegalStateException()))
            .isInstanceOf(IdempotencyException.class)
            .hasCauseInstanceOf(IllegalStateException.class);
    }

}
