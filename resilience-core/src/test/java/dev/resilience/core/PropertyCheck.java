package dev.resilience.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Runs a property over many generated cases, each from its own seed, and on the first
 * failure shrinks the case and fails with the smallest case found, the seed that
 * reproduces it and the error it raised.
 *
 * <p>
 * Seeds are fixed so that a build is repeatable: case {@code i} of a property is
 * generated from {@code base + i}, where {@code base} is the system property
 * {@code property.seed} or else a hash of the property's name. A failure names its seed;
 * running with {@code -Dproperty.seed=<seed>} makes it the first case again.
 * {@code -Dproperty.tries=<n>} overrides the number of cases, to search longer on a quiet
 * machine.
 *
 * @param <C> the type of a case
 */
public final class PropertyCheck<C> {

    private static final int MAX_SHRINK_RUNS = 5_000;

    private final String name;

    private final Function<Random, C> generator;

    private Function<C, Stream<C>> shrinker = (failing) -> Stream.empty();

    private PropertyCheck(String name, Function<Random, C> generator) {
        this.name = name;
        this.generator = generator;
    }

    /**
     * Starts a property.
     * @param name the property's name, used in failures and as the default seed
     * @param generator makes one case from a random source
     * @param <C> the type of a case
     * @return the property, without shrinking
     */
    public static <C> PropertyCheck<C> forAll(String name, Function<Random, C> generator) {
        return new PropertyCheck<>(name, generator);
    }

    /**
     * Sets how a failing case is made smaller: candidates are tried in order, and the
     * first that still fails replaces the case.
     * @param shrinker the smaller candidates of a case, most promising first
     * @return this property
     */
    public PropertyCheck<C> shrinking(Function<C, Stream<C>> shrinker) {
        this.shrinker = shrinker;
        return this;
    }

    /**
     * Checks the property on {@code tries} generated cases.
     * @param tries how many cases to run
     * @param property throws an {@link AssertionError} (or any runtime exception) when
     * the case breaks it
     */
    public void holds(int tries, Consumer<C> property) {
        long base = Long.getLong("property.seed", this.name.hashCode());
        int count = Integer.getInteger("property.tries", tries);
        for (int i = 0; i < count; i++) {
            long seed = base + i;
            C generated = this.generator.apply(new Random(seed));
            Throwable failure = failureOf(property, generated);
            if (failure != null) {
                throw shrunk(seed, generated, failure, property);
            }
        }
    }

    private AssertionError shrunk(long seed, C generated, Throwable failure, Consumer<C> property) {
        C smallest = generated;
        Throwable smallestFailure = failure;
        int runs = 0;
        boolean smaller = true;
        while (smaller && runs < MAX_SHRINK_RUNS) {
            smaller = false;
            for (C candidate : (Iterable<C>) this.shrinker.apply(smallest)::iterator) {
                if (++runs > MAX_SHRINK_RUNS) {
                    break;
                }
                Throwable candidateFailure = failureOf(property, candidate);
                if (candidateFailure != null) {
                    smallest = candidate;
                    smallestFailure = candidateFailure;
                    smaller = true;
                    break;
                }
            }
        }
        return new AssertionError("Property '" + this.name + "' failed with seed " + seed
                + " (run with -Dproperty.seed=" + seed + "); smallest failing case after " + runs + " shrink runs:\n"
                + smallest + "\nfailure: " + smallestFailure.getMessage(), smallestFailure);
    }

    private static <C> Throwable failureOf(Consumer<C> property, C candidate) {
        try {
            property.accept(candidate);
            return null;
        }
        catch (AssertionError | RuntimeException ex) {
            return ex;
        }
    }

    /**
     * Returns the lists made by removing one run of consecutive elements, longest runs
     * first: halves, then quarters, down to single elements.
     * @param list the list to shrink
     * @param <T> the type of its elements
     * @return the shorter lists
     */
    public static <T> Stream<List<T>> withoutRuns(List<T> list) {
        Stream.Builder<List<T>> shorter = Stream.builder();
        for (int run = Math.max(1, list.size() / 2); run >= 1; run /= 2) {
            for (int from = 0; from + run <= list.size(); from += run) {
                List<T> candidate = new ArrayList<>(list.subList(0, from));
                candidate.addAll(list.subList(from + run, list.size()));
                shorter.add(candidate);
            }
            if (run == 1) {
                break;
            }
        }
        return shorter.build();
    }

}
