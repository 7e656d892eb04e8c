/**
 * Idempotent Spring MVC endpoints: RFC 9457 problem responses for refused idempotency keys,
 * and the header that marks a replayed response.
 */
@NullMarked
package dev.resilience.web;

import org.jspecify.annotations.NullMarked;
