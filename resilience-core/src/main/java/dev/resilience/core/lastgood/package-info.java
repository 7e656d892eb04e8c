/**
 * The last good value of a method: the {@link dev.resilience.core.lastgood.LastGoodStore}
 * SPI and its bounded, expiring in-memory store.
 */
@NullMarked
package dev.resilience.core.lastgood;

import org.jspecify.annotations.NullMarked;
