/**
 * Feature shunting: whether a dependency's breaker lets calls through, asked by name from
 * application code and expressions, to grey out a feature while it is open.
 */
@NullMarked
package dev.resilience.feature;

import org.jspecify.annotations.NullMarked;
