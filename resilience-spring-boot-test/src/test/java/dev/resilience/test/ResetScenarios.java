package dev.resilience.test;

import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.registry.ResilienceRegistry;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What one test leaves behind and the next must not see, for test classes that run them
 * in either order: each "leaves" step changes a policy's state, each "finds" step asserts
 * that state is as the application started, which holds only when the state was reset in
 * between (nothing in these steps moves the clock).
 */
abstract class ResetScenarios {

    @Autowired
    Gateway gateway;

    @Autowired
    ResilienceRegistry registry;

    void leavesTheBreakerOpen() {
        assertThatIllegalStateException().isThrownBy(() -> this.gateway.charge(true));
        assertThatIllegalStateException().isThrownBy(() -> this.gateway.charge(true));
        assertThat(breaker().state()).isEqualTo(CircuitBreakerState.OPEN);
        assertThatThrownBy(() -> this.gateway.charge(false)).isInstanceOf(CallNotPermittedException.class);
    }

    void findsTheBreakerClosedWithAnEmptyWindow() {
        assertThat(breaker().state()).isEqualTo(CircuitBreakerState.CLOSED);
        assertThat(breaker().metrics().bufferedCalls()).isZero();
        assertThat(breaker().metrics().failedCalls()).isZero();
        assertThat(this.gateway.charge(false)).isEqualTo("charged");
        assertThat(breaker().metrics().bufferedCalls()).isOne();
    }

    void leavesTheRetryBudgetExhausted() {
        assertThat(attemptsOfAFailingBudgetedCall()).isEqualTo(2);
        assertThat(attemptsOfAFailingBudgetedCall()).isEqualTo(1);
        assertThat(budget().retriesInWindow()).isOne();
    }

    void findsTheRetryBudgetFull() {
        assertThat(budget().callsInWindow()).isZero();
        assertThat(budget().retriesInWindow()).isZero();
        assertThat(attemptsOfAFailingBudgetedCall()).isEqualTo(2);
    }

    void leavesTheIdempotencyKeyUsed() {
        int before = this.gateway.bookings();
        String first = this.gateway.book("order-1");
        assertThat(this.gateway.book("order-1")).isEqualTo(first);
        assertThat(this.gateway.bookings()).isEqualTo(before + 1);
    }

    void findsTheIdempotencyKeyFree() {
        int before = this.gateway.bookings();
        assertThat(this.gateway.book("order-1")).isEqualTo("booking-order-1-" + (before + 1));
        assertThat(this.gateway.bookings()).isEqualTo(before + 1);
    }

    private int attemptsOfAFailingBudgetedCall() {
        int before = this.gateway.attempts();
        assertThatIllegalStateException().isThrownBy(this.gateway::budgeted);
        return this.gateway.attempts() - before;
    }

    private CircuitBreaker breaker() {
        return this.registry.findCircuitBreaker("gateway").orElseThrow();
    }

    private RetryBudget budget() {
        RetryBudget budget = this.registry.findRetryPolicy("budgeted").orElseThrow().budget();
        assertThat(budget).isNotNull();
        return budget;
    }

}
