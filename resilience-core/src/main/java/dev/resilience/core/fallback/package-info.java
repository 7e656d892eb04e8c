/**
 * Deprecated since 0.1.0, for removal: the fallback types moved to
 * {@link dev.resilience.core}, beside {@link dev.resilience.core.CallContext} and the
 * pipeline that runs them, as {@link dev.resilience.core.FallbackChain} and
 * {@link dev.resilience.core.FallbackHandler}, with the same names and methods. The types
 * left here only bridge to those, so that code written against this package still
 * compiles: change its imports to move it. Two uses of the old types do not compile any
 * more, because keeping them would keep the engine depending on this package: a variable
 * of the old {@code FallbackChain} type assigned from
 * {@code ResiliencePipeline.fallbacks()}, which returns the new type, and
 * {@code builder.fallbacks(null)}, which is now ambiguous (cast the {@code null} to the
 * new {@code FallbackChain}).
 */
@NullMarked
package dev.resilience.core.fallback;

import org.jspecify.annotations.NullMarked;
