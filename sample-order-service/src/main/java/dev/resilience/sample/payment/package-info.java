/**
 * Payments: the resilient payment service, its gateway client and the HTTP endpoint.
 */
@NullMarked
package dev.resilience.sample.payment;

import org.jspecify.annotations.NullMarked;
