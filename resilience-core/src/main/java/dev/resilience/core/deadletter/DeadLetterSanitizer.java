package dev.resilience.core.deadletter;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Shows dead letters without their secrets, for endpoints, logs and span events; the
 * store keeps them whole, as a re-drive needs them.
 *
 * <p>
 * When values are shown, an argument that is JSON keeps its structure and every value
 * whose key contains one of the sensitive words (case-insensitive, at any depth) becomes
 * {@value #MASK}; a value that is an object or array is masked whole. A string whose text
 * is JSON, such as a payload passed as a string, is sanitized the same way; a string that
 * starts like JSON but is not is masked whole. An argument truncated by
 * {@link DeadLetterText#truncate} is sanitized as far as it goes and keeps its marker. A
 * type name ({@code <com.example.Type>}) is shown as it is; any other text that is not
 * JSON is masked whole, as it cannot be told apart from a secret, and so is JSON nested
 * deeper than {@value #MAX_DEPTH} objects or arrays (Jackson's default bound when it
 * writes), which the scanner does not follow. When values are not shown, every argument
 * and the error message become {@value #MASK}; when they are, the error message is shown
 * through {@link #sanitizeMessage}. Thread-safe.
 */
public final class DeadLetterSanitizer {

    /** What a hidden value is shown as. */
    public static final String MASK = "******";

    /** The words that make a key sensitive when contained in it, whatever the case. */
    public static final List<String> DEFAULT_SENSITIVE_WORDS = List.of("password", "secret", "token", "key",
            "credential", "authorization", "card");

    /** The deepest nesting of objects and arrays shown; deeper JSON is masked whole. */
    public static final int MAX_DEPTH = 500;

    private static final Pattern TYPE_NAME = Pattern.compile("<[\\w.$\\[\\];]+>");

    private static final Pattern KEY_VALUE = Pattern.compile(
            "([\\w.-]+)(\\s*[=:]\\s*)((?:bearer|basic|digest)\\s+)?(\"[^\"]*\"|'[^']*'|[^\\s,;&\"'<>)}\\]]+)",
            Pattern.CASE_INSENSITIVE);

    private static final String MASKED_VALUE = "\"" + MASK + "\"";

    private final List<String> sensitiveWords;

    /**
     * Creates a sanitizer of the {@linkplain #DEFAULT_SENSITIVE_WORDS default sensitive
     * words}.
     */
    public DeadLetterSanitizer() {
        this(DEFAULT_SENSITIVE_WORDS);
    }

    /**
     * Creates a sanitizer.
     * @param sensitiveWords the words that make a key sensitive when contained in it
     */
    public DeadLetterSanitizer(Collection<String> sensitiveWords) {
        this.sensitiveWords = sensitiveWords.stream().map((word) -> word.toLowerCase(Locale.ROOT)).toList();
    }

    /**
     * Returns a dead letter as it may be shown.
     * @param deadLetter the dead letter as stored
     * @param showValues whether the values are shown (with sensitive keys still masked)
     * or every argument and the error message are masked
     * @return the dead letter to show
     */
    public DeadLetter sanitize(DeadLetter deadLetter, boolean showValues) {
        List<String> arguments = deadLetter.arguments()
            .stream()
            .map((argument) -> showValues ? sanitize(argument) : MASK)
            .toList();
        String errorMessage = (deadLetter.errorMessage() == null) ? null
                : showValues ? sanitizeMessage(deadLetter.errorMessage()) : MASK;
        return new DeadLetter(deadLetter.id(), deadLetter.name(), deadLetter.method(), arguments,
                deadLetter.errorClass(), errorMessage, deadLetter.attempts(), deadLetter.firstAttemptAt(),
                deadLetter.lastAttemptAt(), deadLetter.status());
    }

    /**
     * Masks the values of sensitive keys in an argument's text.
     * @param argument the argument as stored
     * @return the argument to show
     */
    public String sanitize(String argument) {
        if (TYPE_NAME.matcher(argument).matches()) {
            return argument;
        }
        boolean truncated = DeadLetterText.isTruncated(argument);
        String json = truncated ? argument.substring(0, argument.lastIndexOf("...[truncated ")) : argument;
        String marker = truncated ? argument.substring(json.length()) : "";
        String masked = masked(json, truncated);
        return (masked != null) ? masked + marker : MASK;
    }

    /**
     * Masks the secrets of an error message, which often carries a request or a response:
     * the values of sensitive keys in the JSON objects and arrays it holds, and in its
     * {@code key=value} and {@code key: value} pairs
     * ({@code Authorization: Bearer ******}).
     * @param message the message as stored
     * @return the message to show
     */
    public String sanitizeMessage(String message) {
        StringBuilder shown = new StringBuilder(message.length());
        int plain = 0;
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            if (c != '{' && c != '[') {
                continue;
            }
            Masking masking = new Masking(message, i);
            try {
                masking.value(false);
            }
            catch (EndOfText | NotJson ex) {
                continue;
            }
            shown.append(maskedPairs(message.substring(plain, i))).append(masking.out);
            plain = masking.position;
            i = plain - 1;
        }
        return shown.append(maskedPairs(message.substring(plain))).toString();
    }

    private String maskedPairs(String text) {
        Matcher pair = KEY_VALUE.matcher(text);
        StringBuilder shown = new StringBuilder(text.length());
        while (pair.find()) {
            String replacement = isSensitive(pair.group(1))
                    ? pair.group(1) + pair.group(2) + Objects.toString(pair.group(3), "") + MASK : pair.group();
            pair.appendReplacement(shown, Matcher.quoteReplacement(replacement));
        }
        return pair.appendTail(shown).toString();
    }

    /**
     * JSON with the values of sensitive keys masked, or {@code null} when it is not JSON.
     */
    private @Nullable String masked(String json, boolean cut) {
        Masking masking = new Masking(json);
        try {
            masking.topLevel();
            return masking.out.toString();
        }
        catch (EndOfText ex) {
            return cut ? masking.out.toString() : null;
        }
        catch (NotJson ex) {
            return null;
        }
    }

    /**
     * A string value's content as shown: when it holds JSON (its text starts with a brace
     * or a bracket), that JSON sanitized, or masked whole when it is not JSON after all;
     * any other text as it is.
     */
    private String nested(String content, boolean cut) {
        String decoded = JsonStrings.unescape(content);
        String stripped = decoded.strip();
        if (stripped.isEmpty() || (stripped.charAt(0) != '{' && stripped.charAt(0) != '[')) {
            return content;
        }
        String masked = masked(decoded, cut);
        String quoted = DeadLetterText.quote((masked != null) ? masked : MASK);
        return quoted.substring(1, quoted.length() - 1);
    }

    private boolean isSensitive(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        for (String word : this.sensitiveWords) {
            if (lower.contains(word)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Copies JSON text, masking the values of sensitive keys; stops at the end of the
     * text.
     */
    private final class Masking {

        private final String text;

        private final StringBuilder out;

        private int position;

        private boolean emitting = true;

        private int depth;

        Masking(String text) {
            this(text, 0);
        }

        Masking(String text, int start) {
            this.text = text;
            this.out = new StringBuilder();
            this.position = start;
        }

        void topLevel() {
            value(false);
            skipWhitespace();
            if (this.position < this.text.length()) {
                throw new NotJson();
            }
        }

        void value(boolean masked) {
            skipWhitespace();
            if (masked && this.emitting) {
                this.out.append(MASKED_VALUE);
                this.emitting = false;
                try {
                    value(false);
                }
                finally {
                    this.emitting = true;
                }
                return;
            }
            char c = peek();
            switch (c) {
                case '{' -> object();
                case '[' -> array();
                case '"' -> string(true);
                default -> literal(c);
            }
        }

        private void object() {
            enter();
            take('{');
            skipWhitespace();
            if (peek() == '}') {
                take('}');
                this.depth--;
                return;
            }
            while (true) {
                skipWhitespace();
                String key = string(false);
                skipWhitespace();
                take(':');
                value(isSensitive(JsonStrings.unescape(key)));
                skipWhitespace();
                if (peek() == ',') {
                    take(',');
                }
                else {
                    take('}');
                    this.depth--;
                    return;
                }
            }
        }

        private void array() {
            enter();
            take('[');
            skipWhitespace();
            if (peek() == ']') {
                take(']');
                this.depth--;
                return;
            }
            while (true) {
                value(false);
                skipWhitespace();
                if (peek() == ',') {
                    take(',');
                }
                else {
                    take(']');
                    this.depth--;
                    return;
                }
            }
        }

        private void enter() {
            if (++this.depth > MAX_DEPTH) {
                throw new NotJson();
            }
        }

        private String string(boolean value) {
            if (peek() != '"') {
                throw new NotJson();
            }
            int start = this.position + 1;
            int end = start;
            while (true) {
                if (end >= this.text.length()) {
                    if (this.emitting) {
                        emit(value ? "\"" + nested(this.text.substring(start), true)
                                : this.text.substring(this.position));
                    }
                    this.position = end;
                    throw new EndOfText();
                }
                char c = this.text.charAt(end);
                if (c == '\\') {
                    end += 2;
                }
                else if (c == '"') {
                    break;
                }
                else {
                    end++;
                }
            }
            String content = this.text.substring(start, end);
            if (this.emitting) {
                emit(value ? "\"" + nested(content, false) + "\"" : this.text.substring(this.position, end + 1));
            }
            this.position = end + 1;
            return content;
        }

        private void literal(char first) {
            if (first != '-' && !Character.isDigit(first) && first != 't' && first != 'f' && first != 'n') {
                throw new NotJson();
            }
            int end = this.position;
            while (end < this.text.length() && isLiteralChar(this.text.charAt(end))) {
                end++;
            }
            emit(this.text.substring(this.position, end));
            this.position = end;
        }

        private static boolean isLiteralChar(char c) {
            return Character.isLetterOrDigit(c) || c == '-' || c == '+' || c == '.';
        }

        private void take(char expected) {
            if (peek() != expected) {
                throw new NotJson();
            }
            emit(String.valueOf(expected));
            this.position++;
        }

        private char peek() {
            if (this.position >= this.text.length()) {
                throw new EndOfText();
            }
            return this.text.charAt(this.position);
        }

        private void skipWhitespace() {
            while (this.position < this.text.length() && Character.isWhitespace(this.text.charAt(this.position))) {
                this.position++;
            }
        }

        private void emit(String chunk) {
            if (this.emitting) {
                this.out.append(chunk);
            }
        }

    }

    /** The text ended inside a value. */
    private static final class EndOfText extends RuntimeException {

        EndOfText() {
            super(null, null, false, false);
        }

    }

    /** The text is not JSON. */
    private static final class NotJson extends RuntimeException {

        NotJson() {
            super(null, null, false, false);
        }

    }

}
