package dev.resilience.core;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of {@link AttemptTimeoutException}.
 */
class AttemptTimeoutExceptionTests {

    @Test
    void messageOfATimeoutOfCenturiesSaysItsDuration() {
        assertThat(new AttemptTimeoutException("ledger", Duration.ofDays(109_500)))
            .hasMessage("Attempt of 'ledger' did not complete within 109500d");
    }

}
