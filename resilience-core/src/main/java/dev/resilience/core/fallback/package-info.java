/**
 * Deprecated since 0.1.0, for removal: the fallback types moved to
 * {@link dev.resilience.core}, beside {@link dev.resilience.core.CallContext} and the
 * pipeline that runs them, as {@link dev.resilience.core.FallbackChain} and
 * {@link dev.resilience.core.FallbackHandler}, with the same names and methods. The types
 * left here only bridge to those, so that code written against this package still
 * compiles: change its imports to move it.
 */
@NullMarked
package dev.resilience.core.fallback;

import org.jspecify.annotations.NullMarked;
