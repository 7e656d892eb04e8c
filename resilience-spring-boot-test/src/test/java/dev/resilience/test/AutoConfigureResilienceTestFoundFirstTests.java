package dev.resilience.test;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@link AutoConfigureResilienceTest} resets before each test: The tests that must find
 * the state as at the start run first, those that leave it behind after them, so each
 * class of the pair runs the scenarios in another order.
 */
@SpringBootTest(classes = ResilienceTestApplication.class)
@AutoConfigureResilienceTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AutoConfigureResilienceTestFoundFirstTests extends ResetScenarios {

    @Test
    @Order(2)
    void aTestOpensTheBreaker() {
        leavesTheBreakerOpen();
    }

    @Test
    @Order(2)
    void aTestExhaustsTheRetryBudget() {
        leavesTheRetryBudgetExhausted();
    }

    @Test
    @Order(2)
    void aTestUsesAnIdempotencyKey() {
        leavesTheIdempotencyKeyUsed();
    }

    @Test
    @Order(1)
    void anotherTestFindsTheBreakerClosedWithNoBufferedCalls() {
        findsTheBreakerClosedWithAnEmptyWindow();
    }

    @Test
    @Order(1)
    void anotherTestFindsTheRetryBudgetFull() {
        findsTheRetryBudgetFull();
    }

    @Test
    @Order(1)
    void anotherTestExecutesTheSameIdempotencyKeyAgain() {
        findsTheIdempotencyKeyFree();
    }

}
