package dev.resilience.core.deadletter;

/**
 * The text a JSON string's content stands for, as the sanitizer compares keys by it.
 */
final class JsonStrings {

    private JsonStrings() {
    }

    /**
     * Reads the characters a JSON string's content stands for: escapes such as
     * {@code \\u0077} become their character; a {@code \\u} escape cut short is kept as
     * it is.
     */
    static String unescape(String content) {
        if (content.indexOf('\\') < 0) {
            return content;
        }
        StringBuilder decoded = new StringBuilder(content.length());
        for (int i = 0; i < content.length(); i++) {
            char c = content.charAt(i);
            if (c != '\\' || i + 1 >= content.length()) {
                decoded.append(c);
                continue;
            }
            char escaped = content.charAt(i + 1);
            switch (escaped) {
                case 'b' -> decoded.append('\b');
                case 'f' -> decoded.append('\f');
                case 'n' -> decoded.append('\n');
                case 'r' -> decoded.append('\r');
                case 't' -> decoded.append('\t');
                case 'u' -> {
                    int code = (i + 6 <= content.length()) ? hex(content, i + 2) : -1;
                    if (code < 0) {
                        decoded.append(c);
                        continue;
                    }
                    decoded.append((char) code);
                    i += 4;
                }
                default -> decoded.append(escaped);
            }
            i++;
        }
        return decoded.toString();
    }

    private static int hex(String text, int from) {
        int code = 0;
        for (int i = from; i < from + 4; i++) {
            int digit = Character.digit(text.charAt(i), 16);
            if (digit < 0) {
                return -1;
            }
            code = code * 16 + digit;
        }
        return code;
    }

}
