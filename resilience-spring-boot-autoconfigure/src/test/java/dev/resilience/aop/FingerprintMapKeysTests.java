package dev.resilience.aop;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Map keys count in a fingerprint by their full field values, as the values do, never by
 * their {@code toString()}: a key that masks itself in {@code toString()} hides no
 * difference, and a key with no {@code toString()} of its own (an identity hash) does not
 * make two equal calls differ. Keys Jackson writes as text of their own (strings,
 * numbers, enums, UUIDs) count as before.
 */
class FingerprintMapKeysTests {

    private final IdempotencyFingerprints fingerprints = IdempotencyFingerprints
        .withSecret("a-secret-of-at-least-thirty-two-characters");

    @Test
    void keysThatMaskThemselvesInToStringStillTellCallsApart() {
        assertThat(fingerprint(Map.of(new CardKey("4111111111111111"), 1)))
            .isNotEqualTo(fingerprint(Map.of(new CardKey("4000000000001111"), 1)));
    }

    @Test
    void equalKeysWithoutAToStringOfTheirOwnGiveEqualFingerprints() {
        assertThat(fingerprint(Map.of(new PlainKey("a"), 1))).isEqualTo(fingerprint(Map.of(new PlainKey("a"), 1)));
        assertThat(fingerprint(Map.of(new PlainKey("a"), 1))).isNotEqualTo(fingerprint(Map.of(new PlainKey("b"), 1)));
    }

    @Test
    void keysOfADeclaredKeyTypeCountByTheirFieldsToo() {
        Map<CardKey, Integer> first = new LinkedHashMap<>();
        first.put(new CardKey("4111111111111111"), 1);
        Map<CardKey, Integer> second = new LinkedHashMap<>();
        second.put(new CardKey("4000000000001111"), 1);

        assertThat(fingerprint(new Basket(first))).isNotEqualTo(fingerprint(new Basket(second)));
    }

    @Test
    void stringNumberEnumAndUuidKeysCountAsTheirText() {
        UUID id = UUID.fromString("0e4b8f5c-34a5-4d9b-9a8f-6f0a1b2c3d4e");

        assertThat(fingerprint(Map.of(1, "a"))).isEqualTo(fingerprint(Map.of("1", "a")));
        assertThat(fingerprint(Map.of(Color.RED, "a"))).isEqualTo(fingerprint(Map.of("RED", "a")));
        assertThat(fingerprint(Map.of(id, "a"))).isEqualTo(fingerprint(Map.of(id.toString(), "a")));
    }

    private String fingerprint(Object argument) {
        IdempotencyFingerprints.Digest digest = this.fingerprints.start();
        digest.add(argument);
        return digest.finish();
    }

    enum Color {

        RED

    }

    record Basket(Map<CardKey, Integer> items) {
    }

    /** A key that masks its card number in toString(). */
    static final class CardKey {

        private final String number;

        CardKey(String number) {
            this.number = number;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof CardKey key && key.number.equals(this.number);
        }

        @Override
        public int hashCode() {
            return this.number.hashCode();
        }

        @Override
        public String toString() {
            return "****" + this.number.substring(this.number.length() - 4);
        }

    }

    /** A key with the toString(), equals and hashCode of Object: an identity hash. */
    static final class PlainKey {

        private final String id;

        PlainKey(String id) {
            this.id = id;
        }

    }

}
