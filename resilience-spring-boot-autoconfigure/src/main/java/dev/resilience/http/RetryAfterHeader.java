package dev.resilience.http;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;

import org.springframework.http.HttpHeaders;

/**
 * Reads the wait a response asks for in its {@code Retry-After} header, as delta-seconds
 * or as an HTTP-date, never longer than can be represented in nanoseconds.
 */
final class RetryAfterHeader {

    /** Caps a wait read from a header so that it fits in nanoseconds. */
    private static final Duration LONGEST = Duration.ofSeconds(999_999_999);

    private static final int LONGEST_DIGITS = 9;

    private RetryAfterHeader() {
    }

    /**
     * Reads the wait a response asks for.
     * @param headers the response's headers
     * @param now the time an HTTP-date is read against
     * @return the wait, at most 999,999,999 seconds; zero when the header is absent, is
     * neither delta-seconds nor an HTTP-date, or names a date in the past
     */
    static Duration read(HttpHeaders headers, Instant now) {
        String value = headers.getFirst(HttpHeaders.RETRY_AFTER);
        if (value == null || value.isBlank()) {
            return Duration.ZERO;
        }
        value = value.trim();
        if (value.chars().allMatch((c) -> c >= '0' && c <= '9')) {
            return delaySeconds(value);
        }
        try {
            ZonedDateTime date = headers.getFirstZonedDateTime(HttpHeaders.RETRY_AFTER);
            Duration wait = (date != null) ? Duration.between(now, date.toInstant()) : Duration.ZERO;
            return wait.isNegative() ? Duration.ZERO : (wait.compareTo(LONGEST) > 0) ? LONGEST : wait;
        }
        catch (IllegalArgumentException | DateTimeException ex) {
            return Duration.ZERO;
        }
    }

    private static Duration delaySeconds(String digits) {
        int start = 0;
        while (start < digits.length() - 1 && digits.charAt(start) == '0') {
            start++;
        }
        String significant = digits.substring(start);
        return (significant.length() > LONGEST_DIGITS) ? LONGEST : Duration.ofSeconds(Long.parseLong(significant));
    }

}
