package dev.resilience.core.retry;

import java.time.Duration;

import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RetryBudgetResetTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    @Test
    void anExhaustedBudgetIsEmptiedAndRefilledAsAtItsCreation() {
        RetryBudget budget = new RetryBudget(0.5, 1, Duration.ofSeconds(10), this.clock);
        budget.recordCall();
        budget.recordCall();
        assertThat(budget.tryAcquireRetry()).isTrue();
        assertThat(budget.tryAcquireRetry()).isFalse();

        budget.reset();

        assertThat(budget.callsInWindow()).isZero();
        assertThat(budget.retriesInWindow()).isZero();
        assertThat(budget.refusedTotal()).isOne();
        assertThat(budget.tryAcquireRetry()).isTrue();
        assertThat(budget.tryAcquireRetry()).isFalse();
        assertThat(budget.refusedTotal()).isEqualTo(2);
    }

    @Test
    void callsCountedAfterTheResetEarnTokensAgain() {
        RetryBudget budget = new RetryBudget(1, 0, Duration.ofSeconds(10), this.clock);
        budget.recordCall();
        budget.reset();
        assertThat(budget.tryAcquireRetry()).isFalse();

        budget.recordCall();

        assertThat(budget.callsInWindow()).isOne();
        assertThat(budget.tryAcquireRetry()).isTrue();
    }

    @Test
    void theFloorRefillsFromTheResetOnwards() {
        RetryBudget budget = new RetryBudget(0, 1, Duration.ofSeconds(10), this.clock);
        assertThat(budget.tryAcquireRetry()).isTrue();
        this.clock.advance(Duration.ofMillis(500));
        budget.reset();
        assertThat(budget.tryAcquireRetry()).isTrue();
        assertThat(budget.tryAcquireRetry()).isFalse();

        this.clock.advance(Duration.ofSeconds(1));

        assertThat(budget.tryAcquireRetry()).isTrue();
    }

}
