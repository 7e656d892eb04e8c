package dev.resilience.core.deadletter;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DeadLetterTextTests {

    @Test
    void userInfoWhosePasswordHoldsAnAtSignIsRemovedWhole() {
        assertThat(DeadLetterText.withoutUrlCredentials("Unable to connect to redis://app:p@ss@w0rd@cache:6379/0"))
            .isEqualTo("Unable to connect to redis://cache:6379/0");
        assertThat(DeadLetterText.withoutUrlCredentials("GET https://host/a@b failed"))
            .isEqualTo("GET https://host/a@b failed");
    }

}
