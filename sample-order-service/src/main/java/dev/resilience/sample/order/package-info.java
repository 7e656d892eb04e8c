/**
 * Orders: creating, reading and moving them through the payment states.
 */
@NullMarked
package dev.resilience.sample.order;

import org.jspecify.annotations.NullMarked;
