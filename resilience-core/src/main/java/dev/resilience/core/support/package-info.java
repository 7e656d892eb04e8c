/**
 * Small rules and data structures that several policies share, so that each is written
 * once; public so that the policy packages can use them, not part of the API the README
 * shows.
 */
@NullMarked
package dev.resilience.core.support;

import org.jspecify.annotations.NullMarked;
