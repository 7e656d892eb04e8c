package dev.resilience.chaos;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Objects;

import dev.resilience.core.time.Durations;
import org.jspecify.annotations.Nullable;

/**
 * The faults injected into each attempt of one protected operation: the fraction of
 * attempts that fail, the latency added before each attempt, and the exception a failed
 * attempt throws. Immutable.
 *
 * @param failureRate the fraction of attempts that fail, from 0 to 1
 * @param latency the time each attempt waits before it runs; zero for none
 * @param exception the class of the injected failure: a {@link RuntimeException} with a
 * public constructor taking a message, or a public no-argument one
 */
public record ChaosSettings(double failureRate, Duration latency, Class<? extends RuntimeException> exception) {

    /** No fault at all. */
    public static final ChaosSettings NONE = new ChaosSettings(0, Duration.ZERO, ChaosException.class);

    /**
     * Validates the settings.
     * @param failureRate the fraction of attempts that fail, from 0 to 1
     * @param latency the time each attempt waits before it runs
     * @param exception the class of the injected failure
     * @throws IllegalArgumentException when a setting is out of range
     */
    public ChaosSettings {
        if (!(failureRate >= 0 && failureRate <= 1)) {
            throw new IllegalArgumentException("failureRate must be between 0 and 1, was " + failureRate);
        }
        Objects.requireNonNull(latency, "latency");
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must be >= 0, was " + latency);
        }
        Objects.requireNonNull(exception, "exception");
        requireInstantiable(exception);
    }

    /**
     * Returns these settings with some of them changed.
     * @param failureRate the new failure rate, or {@code null} to keep this one
     * @param latency the new latency, or {@code null} to keep this one
     * @return the changed settings
     * @throws IllegalArgumentException when a new setting is out of range
     */
    public ChaosSettings with(@Nullable Double failureRate, @Nullable Duration latency) {
        return new ChaosSettings((failureRate != null) ? failureRate : this.failureRate,
                (latency != null) ? latency : this.latency, this.exception);
    }

    /**
     * Returns whether these settings inject nothing.
     * @return {@code true} when no attempt fails and none waits
     */
    public boolean inert() {
        return this.failureRate == 0 && this.latency.isZero();
    }

    @Override
    public String toString() {
        return "failure-rate=" + this.failureRate + ", latency=" + Durations.format(this.latency) + ", exception="
                + this.exception.getName();
    }

    /**
     * Creates the exception of an injected failure.
     * @param name the protected operation's name
     * @return the exception, with a message naming the operation when it takes one
     */
    RuntimeException newException(String name) {
        String message = "Chaos injected a failure into " + name;
        try {
            Constructor<? extends RuntimeException> withMessage = messageConstructor(this.exception);
            return (withMessage != null) ? withMessage.newInstance(message)
                    : this.exception.getConstructor().newInstance();
        }
        catch (ReflectiveOperationException | RuntimeException ex) {
            return new ChaosException(message + " (" + this.exception.getName() + " could not be created: " + ex + ")");
        }
    }

    /**
     * Checks that chaos can throw instances of a class.
     * @param exception the class
     * @throws IllegalArgumentException when the class is abstract or has neither a public
     * constructor taking a {@code String} nor a public no-argument one
     */
    public static void requireInstantiable(Class<?> exception) {
        if (!RuntimeException.class.isAssignableFrom(exception)) {
            throw new IllegalArgumentException(exception.getName() + " is not a RuntimeException: a checked "
                    + "exception would reach callers whose method does not declare it");
        }
        if (Modifier.isAbstract(exception.getModifiers()) || !Modifier.isPublic(exception.getModifiers())) {
            throw new IllegalArgumentException(exception.getName() + " is not a public concrete class");
        }
        if (messageConstructor(exception) == null && noArgumentConstructor(exception) == null) {
            throw new IllegalArgumentException(exception.getName()
                    + " has neither a public constructor taking a String message nor a public no-argument one");
        }
    }

    private static <E> @Nullable Constructor<E> messageConstructor(Class<E> type) {
        try {
            return type.getConstructor(String.class);
        }
        catch (NoSuchMethodException ex) {
            return null;
        }
    }

    private static <E> @Nullable Constructor<E> noArgumentConstructor(Class<E> type) {
        try {
            return type.getConstructor();
        }
        catch (NoSuchMethodException ex) {
            return null;
        }
    }

}
