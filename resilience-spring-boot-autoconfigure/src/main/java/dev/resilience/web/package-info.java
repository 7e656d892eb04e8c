/**
 * Spring MVC support: RFC 9457 problem responses for refused idempotency keys, rate
 * limits (429) and full bulkheads (503), the check of the headers a key is made of, and
 * the header that marks a replayed response.
 */
@NullMarked
package dev.resilience.web;

import org.jspecify.annotations.NullMarked;
