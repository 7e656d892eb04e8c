package dev.resilience.actuate.endpoint;

import java.time.Duration;
import java.util.List;

import dev.resilience.core.time.Durations;
import org.jspecify.annotations.Nullable;

/**
 * How the endpoints write values that JSON has no type for.
 */
final class Descriptors {

    private Descriptors() {
    }

    static @Nullable String durationOrNull(@Nullable Duration duration) {
        return (duration != null) ? Durations.format(duration) : null;
    }

    static List<String> classNames(List<Class<? extends Throwable>> types) {
        return types.stream().map(Class::getName).toList();
    }

}
