package dev.resilience.sample;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The series of a Prometheus text exposition ({@code /actuator/prometheus}): the labels
 * of every sample, by sample name (with its suffix: {@code _total}, {@code _count},
 * {@code _sum}, {@code _max}).
 */
final class PrometheusExposition {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})?\\s+\\S+.*$");

    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final Map<String, List<Map<String, String>>> series;

    private PrometheusExposition(Map<String, List<Map<String, String>>> series) {
        this.series = series;
    }

    static PrometheusExposition parse(String text) {
        Map<String, List<Map<String, String>>> series = new HashMap<>();
        for (String line : text.split("\n")) {
            Matcher sample = SAMPLE.matcher(line);
            if (line.startsWith("#") || !sample.matches()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            Matcher label = LABEL.matcher(Optional.ofNullable(sample.group(2)).orElse(""));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            series.computeIfAbsent(sample.group(1), (name) -> new ArrayList<>()).add(labels);
        }
        return new PrometheusExposition(series);
    }

    Set<String> names() {
        return new TreeSet<>(this.series.keySet());
    }

    /** The label names of the samples of {@code name}. */
    Set<String> labelNames(String name) {
        Set<String> names = new TreeSet<>();
        this.series.getOrDefault(name, List.of()).forEach((labels) -> names.addAll(labels.keySet()));
        return names;
    }

    /** The values a label takes in the samples of {@code name}. */
    Set<String> labelValues(String name, String label) {
        Set<String> values = new TreeSet<>();
        for (Map<String, String> labels : this.series.getOrDefault(name, List.of())) {
            if (labels.containsKey(label)) {
                values.add(labels.get(label));
            }
        }
        return values;
    }

}
