package dev.resilience.test;

import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AutoConfigureResilienceTest} with {@code virtualTime = false}: the application
 * keeps its clock, and the resets still happen.
 */
@SpringBootTest(classes = ResilienceTestApplication.class)
@AutoConfigureResilienceTest(virtualTime = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AutoConfigureResilienceTestWallClockTests extends ResetScenarios {

    @Autowired
    ApplicationContext context;

    @Autowired
    TimeSource timeSource;

    @Test
    @Order(1)
    void aTestOpensTheBreaker() {
        leavesTheBreakerOpen();
    }

    @Test
    @Order(2)
    void anotherTestFindsItClosed() {
        findsTheBreakerClosedWithAnEmptyWindow();
    }

    @Test
    void theApplicationKeepsItsClockAndHasNoResilienceClock() {
        assertThat(this.timeSource).isNotInstanceOf(VirtualTimeSource.class);
        assertThat(this.context.getBeanProvider(ResilienceClock.class).getIfAvailable()).isNull();
        assertThat(this.context.getBeanProvider(ResilienceReset.class).getIfAvailable()).isNotNull();
    }

}
