package dev.resilience.benchmarks.simulator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code --name=value} options of a simulator's command line. Each option is read at
 * most once, by name, with the value to use when it is left out;
 * {@link #requireAllRead()} then refuses any option no one read. Not thread-safe.
 */
public final class SimulatorOptions {

    private final Map<String, String> unread;

    private SimulatorOptions(Map<String, String> values) {
        this.unread = values;
    }

    /**
     * Reads the options of a command line.
     * @param args arguments of the form {@code --name=value}
     * @return the options
     * @throws IllegalArgumentException for an argument of another form
     */
    public static SimulatorOptions parse(String... args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String arg : args) {
            int equals = arg.indexOf('=');
            if (!arg.startsWith("--") || equals < 0) {
                throw new IllegalArgumentException("Expected --name=value, got '" + arg + "'");
            }
            values.put(arg.substring(2, equals), arg.substring(equals + 1));
        }
        return new SimulatorOptions(values);
    }

    /**
     * Reads an option as text.
     * @param name the option's name, without the dashes
     * @param fallback the value when the option is left out
     * @return the option's value or the fallback
     */
    public String text(String name, String fallback) {
        String value = this.unread.remove(name);
        return (value != null) ? value : fallback;
    }

    /**
     * Reads an option as an {@code int}.
     * @param name the option's name, without the dashes
     * @param fallback the value when the option is left out
     * @return the option's value or the fallback
     * @throws NumberFormatException if the value is not an {@code int}
     */
    public int intValue(String name, int fallback) {
        String value = this.unread.remove(name);
        return (value != null) ? Integer.parseInt(value) : fallback;
    }

    /**
     * Reads an option as a {@code long}.
     * @param name the option's name, without the dashes
     * @param fallback the value when the option is left out
     * @return the option's value or the fallback
     * @throws NumberFormatException if the value is not a {@code long}
     */
    public long longValue(String name, long fallback) {
        String value = this.unread.remove(name);
        return (value != null) ? Long.parseLong(value) : fallback;
    }

    /**
     * Reads an option as a {@code double}.
     * @param name the option's name, without the dashes
     * @param fallback the value when the option is left out
     * @return the option's value or the fallback
     * @throws NumberFormatException if the value is not a number
     */
    public double doubleValue(String name, double fallback) {
        String value = this.unread.remove(name);
        return (value != null) ? Double.parseDouble(value) : fallback;
    }

    /**
     * Refuses the options that were given but never read.
     * @throws IllegalArgumentException naming them, if there are any
     */
    public void requireAllRead() {
        if (!this.unread.isEmpty()) {
            throw new IllegalArgumentException("Unknown option(s): " + this.unread.keySet());
        }
    }

}
