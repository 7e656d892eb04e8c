/**
 * Feature shunting: which features the application offers now, a feature greyed out while
 * the breaker of its dependency is open.
 */
@NullMarked
package dev.resilience.sample.feature;

import org.jspecify.annotations.NullMarked;
