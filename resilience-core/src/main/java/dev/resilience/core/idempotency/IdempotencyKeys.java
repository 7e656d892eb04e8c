package dev.resilience.core.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

import org.jspecify.annotations.Nullable;

/**
 * Validation of idempotency keys, whatever expression or header they come from.
 */
public final class IdempotencyKeys {

    /** The longest key accepted, in UTF-16 chars ({@link String#length()}). */
    public static final int MAX_KEY_LENGTH = 255;

    private static final int PREVIEW_LENGTH = 40;

    private IdempotencyKeys() {
    }

    /**
     * Checks a key and returns it as a string. Any characters are accepted except ISO
     * control characters ({@link Character#isISOControl}); keys are compared exactly,
     * with no trimming or case folding.
     * @param key the evaluated key, converted with {@code toString()}
     * @return the key as a string
     * @throws IdempotencyKeyException when the key is {@code null}, empty or blank,
     * longer than {@value #MAX_KEY_LENGTH} chars, or contains a control character; the
     * message says which and quotes at most the first 40 chars of the key
     */
    public static String validate(@Nullable Object key) {
        String text = (key != null) ? key.toString() : null;
        if (text == null) {
            throw new IdempotencyKeyException("Idempotency key is missing");
        }
        if (text.isBlank()) {
            throw new IdempotencyKeyException("Idempotency key is " + (text.isEmpty() ? "empty" : "blank"));
        }
        if (text.length() > MAX_KEY_LENGTH) {
            throw new IdempotencyKeyException("Idempotency key " + preview(text) + " is " + text.length()
                    + " characters long; at most " + MAX_KEY_LENGTH + " are allowed");
        }
        for (int i = 0; i < text.length(); i++) {
            if (Character.isISOControl(text.charAt(i))) {
                throw new IdempotencyKeyException(
                        "Idempotency key " + preview(text) + " contains a control character at index " + i);
            }
        }
        return text;
    }

    /**
     * Returns the SHA-256 digest of a text's UTF-8 bytes in unpadded base64url: 43
     * characters of {@code [A-Za-z0-9_-]}. A text with an unpaired surrogate, which UTF-8
     * would write as {@code ?} like any other, is digested as a byte that UTF-8 never
     * writes ({@code 0xFF}) followed by its UTF-16 chars, each as it is, so that two
     * scopes or keys that differ only there never share a digest.
     * @param text the text
     * @return the digest
     */
    static String digest(String text) {
        byte[] bytes;
        if (isWellFormed(text)) {
            bytes = text.getBytes(StandardCharsets.UTF_8);
        }
        else {
            bytes = new byte[1 + 2 * text.length()];
            bytes[0] = (byte) 0xFF;
            for (int i = 0; i < text.length(); i++) {
                bytes[1 + 2 * i] = (byte) (text.charAt(i) >> 8);
                bytes[2 + 2 * i] = (byte) text.charAt(i);
            }
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(bytes);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
        }
    }

    private static boolean isWellFormed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            }
            else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Quotes the start of a key for a message: at most 40 chars, control characters shown
     * as {@code ?}, an ellipsis when cut.
     */
    static String preview(String key) {
        StringBuilder quoted = new StringBuilder("'");
        int end = Math.min(key.length(), PREVIEW_LENGTH);
        for (int i = 0; i < end; i++) {
            char c = key.charAt(i);
            quoted.append(Character.isISOControl(c) ? '?' : c);
        }
        return quoted.append((key.length() > end) ? "...'" : "'").toString();
    }

}
