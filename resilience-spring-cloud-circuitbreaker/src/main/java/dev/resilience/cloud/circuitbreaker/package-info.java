/**
 * Spring Cloud CircuitBreaker's blocking and reactive factories over the resilience
 * engine, configured by the {@code resilience.*} YAML with the circuit breaker's id as
 * the instance name.
 *
 * <p>
 * Add {@code dev.resilience:resilience-spring-cloud-circuitbreaker} beside the starter
 * and the auto-configuration registers {@link ResilienceCircuitBreakerFactory} and, with
 * Reactor, {@link ReactiveResilienceCircuitBreakerFactory}, unless the application
 * defines its own factory. A breaker of id {@code inventory} is the registry's breaker
 * {@code inventory}, configured under
 * {@code resilience.circuit-breaker.instances.inventory} and shown by
 * {@code /actuator/circuitbreakers}, health and the {@code resilience.circuitbreaker.*}
 * meters; a retry instance, time limiter or bulkhead of that name under
 * {@code resilience.retry.instances}, {@code resilience.time-limiter.instances} or
 * {@code resilience.bulkhead.instances} runs around its calls too.
 *
 * <p>
 * OpenFeign names a method's breaker {@code <Client>#<method>(<parameter types>)} (for
 * {@code InventoryClient#stock(String)}), and by default
 * ({@code spring.cloud.openfeign.circuitbreaker.alphanumeric-ids.enabled=true}) keeps
 * only its letters and digits: {@code InventoryClientstockString}, a plain YAML key. With
 * that setting false the id keeps its punctuation, and the YAML key needs brackets:
 * {@code resilience.circuit-breaker.instances."[InventoryClient#stock(String)]"}. With
 * {@code spring.cloud.openfeign.circuitbreaker.group.enabled=true} a method whose id is
 * not configured uses the instances of its client's name when those are configured
 * ({@link CircuitBreakerIds}). Unconfigured ids beyond
 * {@code spring.cloud.circuitbreaker.resilience.max-ids} share the instances
 * {@value CircuitBreakerIds#OTHER_IDS}, so ids built from input cannot grow the registry
 * and the meters without bound.
 */
@NullMarked
package dev.resilience.cloud.circuitbreaker;

import org.jspecify.annotations.NullMarked;
