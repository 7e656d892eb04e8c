/**
 * The instances an application runs, named as in its configuration: their policies, shared
 * breakers and call statistics.
 */
@NullMarked
package dev.resilience.registry;

import org.jspecify.annotations.NullMarked;
