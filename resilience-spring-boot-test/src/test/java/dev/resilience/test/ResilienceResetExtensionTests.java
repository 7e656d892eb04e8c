package dev.resilience.test;

import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ResilienceResetExtension} alone, without {@link AutoConfigureResilienceTest}:
 * the resets happen, on the application's own clock.
 */
@SpringBootTest(classes = ResilienceTestApplication.class)
@ExtendWith(ResilienceResetExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ResilienceResetExtensionTests extends ResetScenarios {

    @Autowired
    ApplicationContext context;

    @Autowired
    TimeSource timeSource;

    @Test
    @Order(1)
    void aTestOpensTheBreakerAndUsesAnIdempotencyKey() {
        leavesTheBreakerOpen();
        leavesTheIdempotencyKeyUsed();
    }

    @Test
    @Order(2)
    void anotherTestFindsTheBreakerClosedAndTheKeyFree() {
        findsTheBreakerClosedWithAnEmptyWindow();
        findsTheIdempotencyKeyFree();
    }

    @Test
    @Order(3)
    void theApplicationKeepsItsClockAndHasNoResilienceClock() {
        assertThat(this.timeSource).isNotInstanceOf(VirtualTimeSource.class);
        assertThat(this.context.getBeanProvider(ResilienceClock.class).getIfAvailable()).isNull();
        assertThat(this.context.getBeanProvider(ResilienceReset.class).getIfAvailable()).isNull();
    }

}
