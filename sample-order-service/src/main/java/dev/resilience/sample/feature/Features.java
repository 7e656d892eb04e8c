package dev.resilience.sample.feature;

import java.util.Map;

/**
 * The answer of {@code GET /features}.
 *
 * @param features every feature by name
 */
public record Features(Map<String, Feature> features) {
}
