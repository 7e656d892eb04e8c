package dev.resilience.test;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@link AutoConfigureResilienceTest} resets before each test: The tests that leave state
 * behind run first, those that must not see it after them.
 */
@SpringBootTest(classes = ResilienceTestApplication.class)
@AutoConfigureResilienceTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AutoConfigureResilienceTestLeftFirstTests extends ResetScenarios {

    @Test
    @Order(1)
    void aTestOpensTheBreaker() {
        leavesTheBreakerOpen();
    }

    @Test
    @Order(1)
    void aTestExhaustsTheRetryBudget() {
        leavesTheRetryBudgetExhausted();
    }

    @Test
    @Order(1)
    void aTestUsesAnIdempotencyKey() {
        leavesTheIdempotencyKeyUsed();
    }

    @Test
    @Order(2)
    void anotherTestFindsTheBreakerClosedWithNoBufferedCalls() {
        findsTheBreakerClosedWithAnEmptyWindow();
    }

    @Test
    @Order(2)
    void anotherTestFindsTheRetryBudgetFull() {
        findsTheRetryBudgetFull();
    }

    @Test
    @Order(2)
    void anotherTestExecutesTheSameIdempotencyKeyAgain() {
        findsTheIdempotencyKeyFree();
    }

}
