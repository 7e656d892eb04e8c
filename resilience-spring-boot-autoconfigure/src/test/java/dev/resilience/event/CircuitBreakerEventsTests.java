package dev.resilience.event;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.CountingPolicyResolver;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Transitions published and logged, and the bounded, coalescing buffer of recent events.
 */
@ExtendWith(OutputCaptureExtension.class)
class CircuitBreakerEventsTests {

    private final VirtualTimeSource time = new VirtualTimeSource();

    private final ResilienceRegistry registry = new ResilienceRegistry(new CountingPolicyResolver(), this.time);

    private final List<Object> published = new ArrayList<>();

    private CircuitBreakerEvents events(int capacity) {
        CircuitBreakerEvents events = new CircuitBreakerEvents(this.registry, this.published::add, capacity);
        events.afterSingletonsInstantiated();
        return events;
    }

    private CircuitBreaker breaker(String name) {
        return this.registry.circuitBreaker(name);
    }

    @Test
    void transitionOfABreakerCreatedBeforeOrAfterJoiningIsPublishedAsAnApplicationEvent() {
        CircuitBreaker early = breaker("early");
        events(10);
        CircuitBreaker late = breaker("late");

        early.transitionTo(CircuitBreakerState.FORCED_OPEN);
        late.transitionTo(CircuitBreakerState.DISABLED);

        assertThat(this.published).hasSize(2).allMatch(CircuitBreakerTransitionEvent.class::isInstance);
        CircuitBreakerTransitionEvent first = (CircuitBreakerTransitionEvent) this.published.get(0);
        assertThat(first.getCircuitBreaker()).isSameAs(early);
        assertThat(first.getTransition().from()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(first.getTransition().to()).isEqualTo(CircuitBreakerState.FORCED_OPEN);
        assertThat(first.getTransition().at()).isEqualTo(this.time.now());
    }

    @Test
    void openingIsLoggedAsWarningAndClosingAsInfo(CapturedOutput output) {
        events(10);
        CircuitBreaker breaker = breaker("logged");

        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        breaker.transitionTo(CircuitBreakerState.CLOSED);

        assertThat(output.getOut().lines().filter((line) -> line.contains("'logged' moved from"))).satisfiesExactly(
                (line) -> assertThat(line).contains("WARN").contains("CLOSED to FORCED_OPEN"),
                (line) -> assertThat(line).contains("INFO").contains("FORCED_OPEN to CLOSED"));
    }

    @Test
    void eventsAreNewestFirstWithConsecutiveRejectionsCoalesced() {
        CircuitBreakerEvents events = events(10);
        CircuitBreaker breaker = breaker("payment");

        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        for (int i = 0; i < 1000; i++) {
            assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(breaker::acquirePermit);
            this.time.advance(Duration.ofMillis(1));
        }
        breaker.transitionTo(CircuitBreakerState.CLOSED);

        assertThat(events.events("payment"))
            .satisfiesExactly((event) -> assertThat(event.to()).isEqualTo(CircuitBreakerState.CLOSED), (event) -> {
                assertThat(event.type()).isEqualTo(CircuitBreakerEvent.Type.NOT_PERMITTED);
                assertThat(event.count()).isEqualTo(1000);
                assertThat(event.since()).isBefore(event.time());
            }, (event) -> assertThat(event.to()).isEqualTo(CircuitBreakerState.FORCED_OPEN));
    }

    @Test
    void floodsOfRejectionsCannotEvictTransitionsAndTheOldestEntriesGoFirst() {
        CircuitBreakerEvents events = events(4);
        CircuitBreaker breaker = breaker("flooded");

        for (int round = 0; round < 3; round++) {
            breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
            for (int i = 0; i < 500; i++) {
                assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(breaker::acquirePermit);
            }
            breaker.transitionTo(CircuitBreakerState.CLOSED);
        }

        List<CircuitBreakerEvent> recent = events.events("flooded");
        assertThat(recent).hasSize(4);
        assertThat(recent).extracting(CircuitBreakerEvent::type)
            .containsExactly(CircuitBreakerEvent.Type.STATE_TRANSITION, CircuitBreakerEvent.Type.NOT_PERMITTED,
                    CircuitBreakerEvent.Type.STATE_TRANSITION, CircuitBreakerEvent.Type.STATE_TRANSITION);
        assertThat(recent.get(3).to()).isEqualTo(CircuitBreakerState.CLOSED);
    }

    @Test
    void concurrentRejectionsAreAllCounted() throws InterruptedException {
        CircuitBreakerEvents events = events(10);
        CircuitBreaker breaker = breaker("concurrent");
        breaker.transitionTo(CircuitBreakerState.FORCED_OPEN);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 1000; i++) {
                    assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(breaker::acquirePermit);
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }

        assertThat(events.events("concurrent")).hasSize(2).first().satisfies((event) -> {
            assertThat(event.type()).isEqualTo(CircuitBreakerEvent.Type.NOT_PERMITTED);
            assertThat(event.count()).isEqualTo(8000);
        });
    }

    @Test
    void unknownBreakerHasNoEvents() {
        assertThat(events(10).events("unknown")).isEmpty();
    }

}
