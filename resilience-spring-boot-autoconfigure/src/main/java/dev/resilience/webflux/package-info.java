/**
 * Spring WebFlux support: the problem responses, key header check and replay header of
 * idempotent handlers, as in Spring MVC.
 */
@NullMarked
package dev.resilience.webflux;

import org.jspecify.annotations.NullMarked;
