package dev.resilience.core.retry;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class JitterTests {

    @Test
    void parsesEveryModeIgnoringCase() {
        assertThat(Jitter.parse("none")).isEqualTo(Jitter.NONE);
        assertThat(Jitter.parse("Full")).isEqualTo(Jitter.FULL);
        assertThat(Jitter.parse("EQUAL")).isEqualTo(Jitter.EQUAL);
        assertThat(Jitter.parse("decorrelated")).isEqualTo(Jitter.DECORRELATED);
    }

    @Test
    void unknownValueIsRefusedWithTheValidValues() {
        assertThatIllegalArgumentException().isThrownBy(() -> Jitter.parse("random"))
            .withMessageContaining("'random'")
            .withMessageContaining("none, full, equal, decorrelated");
    }

}
