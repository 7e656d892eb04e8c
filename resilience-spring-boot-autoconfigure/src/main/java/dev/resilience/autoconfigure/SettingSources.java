package dev.resilience.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

import dev.resilience.registry.InvalidResiliencePolicyException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationStyle;

/**
 * Where the settings of one named policy come from, in order of precedence: the
 * instance's properties, the annotation, the defaults' properties, the built-in value.
 *
 * @param <S> the settings class, {@link RetrySettings} or {@link CircuitBreakerSettings}
 */
final class SettingSources<S> {

    static final String DURATION_FIX = "Use a duration such as \"200ms\" or \"2s\".";

    private static final Pattern PLAIN_KEY = Pattern.compile("[a-z0-9-]+");

    private final String prefix;

    private final String name;

    private final @Nullable S instance;

    private final S defaults;

    /**
     * Creates the sources of one policy's settings.
     * @param prefix the properties' prefix, such as {@code resilience.retry}
     * @param name the policy's name, the key of its instance properties
     * @param instance the instance's properties, or {@code null} if it has none
     * @param defaults the defaults' properties
     */
    SettingSources(String prefix, String name, @Nullable S instance, S defaults) {
        this.prefix = prefix;
        this.name = name;
        this.instance = instance;
        this.defaults = defaults;
    }

    /**
     * Returns the setting of highest precedence that is set.
     * @param <T> the type of the value
     * @param key the property key, such as {@code max-attempts}
     * @param property reads the value from a settings object, {@code null} if unset there
     * @param annotation the annotation's value, or {@code null} if the annotation leaves
     * it unset
     * @param builtIn the value when nothing sets it, {@code null} for none
     * @return the value and its source
     */
    <T> Setting<T> pick(String key, Function<S, @Nullable T> property, @Nullable Setting<T> annotation,
            @Nullable T builtIn) {
        T value = (this.instance != null) ? property.apply(this.instance) : null;
        if (value != null) {
            return new Setting<>(this.prefix + ".instances" + mapKey(this.name) + "." + key, value);
        }
        if (annotation != null) {
            return annotation;
        }
        value = property.apply(this.defaults);
        if (value != null) {
            return new Setting<>(this.prefix + ".defaults." + key, value);
        }
        return new Setting<>("the built-in default of " + this.prefix + ".defaults." + key, builtIn);
    }

    /**
     * Returns a duration written in an annotation attribute.
     * @param subject the policy's name
     * @param attribute the attribute, such as {@code @Retryable(delay)}
     * @param text the attribute's value
     * @return the parsed setting, or {@code null} if the attribute is empty
     * @throws InvalidResiliencePolicyException if the text is not a duration
     */
    static @Nullable Setting<Duration> annotationDuration(String subject, String attribute, String text) {
        if (text.isEmpty()) {
            return null;
        }
        try {
            return new Setting<>(attribute, DurationStyle.detectAndParse(text));
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidResiliencePolicyException(subject, attribute, text, "'" + text + "' is not a duration",
                    DURATION_FIX, ex);
        }
    }

    /**
     * Returns exception types listed in an annotation attribute.
     * @param attribute the attribute, such as {@code @Retryable(retryOn)}
     * @param types the attribute's value
     * @return the setting, or {@code null} if the list is empty
     */
    static @Nullable Setting<List<Class<? extends Throwable>>> annotationTypes(String attribute,
            Class<? extends Throwable>[] types) {
        return (types.length > 0) ? new Setting<>(attribute, List.copyOf(Arrays.asList(types))) : null;
    }

    private static String mapKey(String name) {
        return PLAIN_KEY.matcher(name).matches() ? "." + name : "[" + name + "]";
    }

}
