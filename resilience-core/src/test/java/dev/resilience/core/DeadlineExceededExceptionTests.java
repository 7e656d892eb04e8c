package dev.resilience.core;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of {@link DeadlineExceededException}.
 */
class DeadlineExceededExceptionTests {

    @Test
    void messageOfADeadlineOfCenturiesSaysItsDuration() {
        IllegalStateException lastError = new IllegalStateException("down");

        assertThat(new DeadlineExceededException("ledger", Duration.ofDays(109_500), lastError))
            .hasMessage("Call of 'ledger' could not complete within its deadline of 109500d")
            .hasCause(lastError);
    }

}
