package dev.resilience.sample.feature;

/**
 * One feature as {@code GET /features} shows it.
 *
 * @param available whether the feature is offered now: its dependency's breaker would let
 * a call through
 * @param breaker the name of the breaker guarding the feature's dependency
 * @param breakerState that breaker's state, the reason a feature is greyed out
 * ({@code OPEN}, {@code HALF_OPEN} with every probe out, {@code FORCED_OPEN})
 */
public record Feature(boolean available, String breaker, String breakerState) {
}
