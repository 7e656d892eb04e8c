/**
 * Auto-configuration and configuration properties of the resilience starter.
 */
@NullMarked
package dev.resilience.autoconfigure;

import org.jspecify.annotations.NullMarked;
