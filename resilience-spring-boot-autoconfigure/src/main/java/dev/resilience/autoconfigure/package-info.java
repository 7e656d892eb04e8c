/**
 * Configuration properties of the resilience starter and the resolvers that turn them,
 * with the annotations, into core policies.
 */
@NullMarked
package dev.resilience.autoconfigure;

import org.jspecify.annotations.NullMarked;
