package dev.resilience.core.deadletter;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The text written into dead letters: arguments rendered as data (never with
 * {@code toString()}), bounded in bytes, and error messages without the credentials of
 * the URLs they name.
 */
public final class DeadLetterText {

    /** The default bound of one argument's text, in UTF-8 bytes: 16 KB. */
    public static final int DEFAULT_MAX_ARGUMENT_SIZE = 16 * 1024;

    /** How a truncated text ends: {@code ...[truncated <n> bytes]}, n the bytes cut. */
    public static final String TRUNCATION_MARKER_FORMAT = "...[truncated %d bytes]";

    private static final Pattern TRUNCATION_MARKER = Pattern.compile("\\.\\.\\.\\[truncated \\d+ bytes]$");

    private static final Pattern URL = Pattern.compile(
            "\\b([a-zA-Z][a-zA-Z0-9+.-]*://)([^/\\s?#\"'<>]*@)?([^\\s?#\"'<>]*)(\\?[^\\s#\"'<>]*)?(#[^\\s\"'<>]*)?");

    private DeadLetterText() {
    }

    /**
     * Renders an argument as JSON data where the JDK alone can: {@code null}, strings and
     * characters (quoted and escaped), numbers, booleans and enum constants (by name);
     * any other value as its type name, {@code <com.example.Type>}, never with its
     * {@code toString()}, which may print secrets.
     * @param argument the argument
     * @return its text
     */
    public static String asData(@Nullable Object argument) {
        if (argument == null) {
            return "null";
        }
        if (argument instanceof CharSequence || argument instanceof Character) {
            return quote(argument.toString());
        }
        if (argument instanceof Enum<?> constant) {
            return quote(constant.name());
        }
        if (argument instanceof Boolean || argument instanceof Integer || argument instanceof Long
                || argument instanceof Short || argument instanceof Byte || argument instanceof java.math.BigInteger
                || argument instanceof java.math.BigDecimal) {
            return argument.toString();
        }
        if (argument instanceof Double || argument instanceof Float) {
            double value = ((Number) argument).doubleValue();
            return (Double.isFinite(value)) ? argument.toString() : quote(argument.toString());
        }
        return typeName(argument);
    }

    /**
     * Returns the type name an argument is shown as when it cannot be rendered as data.
     * @param argument the argument
     * @return {@code <com.example.Type>}
     */
    public static String typeName(@Nullable Object argument) {
        return "<" + ((argument != null) ? argument.getClass().getName() : "null") + ">";
    }

    /**
     * Bounds a text in UTF-8 bytes: a longer text keeps its first {@code maxBytes} bytes,
     * cut on a character boundary, followed by {@code ...[truncated <n> bytes]}.
     * @param text the text
     * @param maxBytes the bound; at least 1
     * @return the text, or its truncated form
     */
    public static String truncate(String text, int maxBytes) {
        if (text.length() <= maxBytes / 3) {
            return text;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= maxBytes) {
            return text;
        }
        int end = maxBytes;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8)
                + String.format(Locale.ROOT, TRUNCATION_MARKER_FORMAT, bytes.length - end);
    }

    /**
     * Tells whether a text ends with the truncation marker.
     * @param text the text
     * @return {@code true} if it was truncated by {@link #truncate}
     */
    public static boolean isTruncated(String text) {
        return TRUNCATION_MARKER.matcher(text).find();
    }

    /**
     * Removes the user info, query and fragment of every URL in a message, such as the
     * {@code https://user:pw@host/path?token=abc} of a client's I/O error, which becomes
     * {@code https://host/path}. Credentials in a URL's path are not recognized.
     * @param message the message, possibly {@code null}
     * @return the message without them
     */
    public static @Nullable String withoutUrlCredentials(@Nullable String message) {
        if (message == null || message.indexOf("://") < 0) {
            return message;
        }
        Matcher matcher = URL.matcher(message);
        StringBuilder result = new StringBuilder(message.length());
        while (matcher.find()) {
            matcher.appendReplacement(result, Matcher.quoteReplacement(matcher.group(1) + matcher.group(3)));
        }
        matcher.appendTail(result);
        return result.toString();
    }

    static String quote(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    }
                    else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }

}
