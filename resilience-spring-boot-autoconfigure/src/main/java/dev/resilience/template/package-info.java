/**
 * Programmatic use of the configured instances, by name.
 */
@NullMarked
package dev.resilience.template;

import org.jspecify.annotations.NullMarked;
