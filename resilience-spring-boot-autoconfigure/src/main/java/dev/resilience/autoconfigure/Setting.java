package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import dev.resilience.core.time.Durations;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;

/**
 * One resolved setting of a policy: its value and where the value came from, so that an
 * invalid value can be reported against the annotation attribute or property that holds
 * it.
 *
 * @param <T> the type of the value
 * @param source the annotation attribute or property name, or a mention of the built-in
 * default
 * @param value the value, {@code null} where unset means none (a timeout, a deadline)
 */
record Setting<T>(String source, @Nullable T value) {

    /**
     * Returns the value as a user would write it.
     * @return the value; a duration in the simple format ({@code 200ms}), classes by name
     */
    String text() {
        if (this.value instanceof Duration duration) {
            return Durations.format(duration);
        }
        if (this.value instanceof List<?> list) {
            return list.stream()
                .map((element) -> (element instanceof Class<?> type) ? type.getName() : String.valueOf(element))
                .collect(Collectors.joining(", ", "[", "]"));
        }
        return String.valueOf(this.value);
    }

    /**
     * Passes the value to a core builder's setter, reporting a value the setter rejects.
     * @param subject the policy's name
     * @param setter the setter
     * @param fix how to correct a rejected value
     * @throws InvalidResiliencePolicyException if the setter rejects the value
     */
    void applyTo(String subject, Consumer<@Nullable T> setter, String fix) {
        try {
            setter.accept(this.value);
        }
        catch (IllegalArgumentException ex) {
            throw invalid(subject, ex.getMessage(), fix, ex);
        }
    }

    /**
     * Rejects the value unless a condition holds.
     * @param subject the policy's name
     * @param valid whether the value is valid
     * @param reason why it is not
     * @param fix how to correct it
     * @throws InvalidResiliencePolicyException if {@code valid} is {@code false}
     */
    void require(String subject, boolean valid, String reason, String fix) {
        if (!valid) {
            throw invalid(subject, reason, fix, null);
        }
    }

    /**
     * Returns an exception reporting this setting as invalid.
     * @param subject the policy's name
     * @param reason why the value is invalid
     * @param fix how to correct it
     * @param cause the exception that revealed it, or {@code null}
     * @return the exception
     */
    InvalidResiliencePolicyException invalid(String subject, String reason, String fix, @Nullable Throwable cause) {
        return new InvalidResiliencePolicyException(subject, this.source, text(), reason, fix, cause);
    }
}
