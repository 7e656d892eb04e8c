/**
 * Test support for applications that use the starter: resets between tests and a virtual
 * clock.
 */
@NullMarked
package dev.resilience.test;

import org.jspecify.annotations.NullMarked;
