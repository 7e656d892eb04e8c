/**
 * Circuit breaker transitions as Spring application events and log lines, and the recent
 * events of each breaker.
 */
@NullMarked
package dev.resilience.event;

import org.jspecify.annotations.NullMarked;
