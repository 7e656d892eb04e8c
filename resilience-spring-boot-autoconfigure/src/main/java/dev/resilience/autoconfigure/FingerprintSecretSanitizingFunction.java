package dev.resilience.autoconfigure;

import java.util.Locale;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;

/**
 * Masks {@code resilience.idempotency.fingerprint-secret} at
 * {@code /actuator/configprops} and {@code /actuator/env} when they show values, which
 * Boot does not do by itself for any key: whoever read the secret could test guessed
 * arguments against the fingerprints in the store. The key is matched in every form it
 * takes (the property, its camel-case field, the environment variable
 * {@code RESILIENCE_IDEMPOTENCY_FINGERPRINTSECRET}); other values are left as they are.
 */
final class FingerprintSecretSanitizingFunction implements SanitizingFunction {

    private static final String KEY = "fingerprintsecret";

    @Override
    public SanitizableData apply(SanitizableData data) {
        return isSecret(data.getKey()) ? data.withSanitizedValue() : data;
    }

    private static boolean isSecret(String key) {
        StringBuilder letters = new StringBuilder(key.length());
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isLetterOrDigit(c)) {
                letters.append(c);
            }
        }
        return letters.toString().toLowerCase(Locale.ROOT).endsWith(KEY);
    }

}
