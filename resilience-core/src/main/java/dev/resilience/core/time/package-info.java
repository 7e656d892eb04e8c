/**
 * The one interface through which the engine reads time, sleeps and schedules, with a
 * system and a virtual implementation.
 */
@NullMarked
package dev.resilience.core.time;

import org.jspecify.annotations.NullMarked;
