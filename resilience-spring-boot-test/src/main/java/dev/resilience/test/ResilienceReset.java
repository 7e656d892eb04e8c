package dev.resilience.test;

import java.util.Objects;

import dev.resilience.chaos.ChaosInstances;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyStore;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.lastgood.InMemoryLastGoodStore;
import dev.resilience.core.lastgood.LastGoodStore;
import dev.resilience.registry.ResilienceRegistry;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Puts the resilience state of an application context back as it was at its start: every
 * {@link ResilienceRegistry}'s instances ({@link ResilienceRegistry#reset()}: breakers
 * CLOSED with empty windows and no forced state, retry budgets empty and refilled, rate
 * limiters' bursts free, adaptive bulkhead limits afresh), the faults of chaos changed at
 * run time back to their configured settings, and the in-memory idempotency, dead-letter
 * and last-good stores emptied. Stores kept elsewhere (Redis) are not touched: a test
 * that uses them empties them itself.
 *
 * <p>
 * {@link AutoConfigureResilienceTest} runs it before each test method; a test may also
 * inject it and call {@link #reset()} itself. What it resets stays the same objects, so
 * the meters, endpoints and health of the context report the fresh state; counters keep
 * counting (they never go back), so a test asserts on their increase. A call running on
 * another thread during a reset ends normally: its outcome is not recorded in the fresh
 * breaker window, and its idempotent result is not stored (see each instance's reset).
 * The beans are looked up at each reset, so instances and stores created late are
 * included. Thread-safe.
 */
public final class ResilienceReset {

    private final ListableBeanFactory beans;

    private ResilienceReset(ListableBeanFactory beans) {
        this.beans = beans;
    }

    /**
     * Returns the reset of the resilience beans of a context.
     * @param beans the application context, or another bean factory
     * @return its reset
     */
    public static ResilienceReset of(ListableBeanFactory beans) {
        return new ResilienceReset(Objects.requireNonNull(beans, "beans"));
    }

    /**
     * Resets every registry and the chaos, and empties every in-memory store of the
     * context.
     */
    public void reset() {
        this.beans.getBeanProvider(ResilienceRegistry.class).orderedStream().forEach(ResilienceRegistry::reset);
        this.beans.getBeanProvider(ChaosInstances.class).orderedStream().forEach(ChaosInstances::reset);
        this.beans.getBeanProvider(IdempotencyStore.class)
            .orderedStream()
            .filter(InMemoryIdempotencyStore.class::isInstance)
            .forEach((store) -> ((InMemoryIdempotencyStore) store).clear());
        this.beans.getBeanProvider(DeadLetterStore.class)
            .orderedStream()
            .filter(InMemoryDeadLetterStore.class::isInstance)
            .forEach((store) -> ((InMemoryDeadLetterStore) store).clear());
        this.beans.getBeanProvider(LastGoodStore.class)
            .orderedStream()
            .filter(InMemoryLastGoodStore.class::isInstance)
            .forEach((store) -> ((InMemoryLastGoodStore) store).clear());
    }

}
