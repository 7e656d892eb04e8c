package dev.resilience.aop;

import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code failOnResult} predicate of a breaker, shared by every method that names it.
 * A value it judges a failure is returned to its caller (README, result predicates), but
 * it is no good value: {@code @Fallback(lastGood)} must not keep it and serve it, as if
 * it were good, to a later call that fails. And each method's expression reads that
 * method's own parameters (the README's {@code #acceptPending}), overloads included,
 * which go by one {@code SimpleClassName#method}.
 */
class BreakerResultExpressionsReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(Quotes.class)
        .withBean(Stock.class);

    /** After a good 5 and a failed-by-predicate -1, a failing call is served the 5. */
    @Test
    void valueTheBreakerJudgesAFailureIsNotServedAsTheLastGoodValue() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            quotes.answer(5, -1);

            ExecutionResult<Integer> good = quotes.quote("ETH");
            ExecutionResult<Integer> judgedFailure = quotes.quote("ETH");
            ExecutionResult<Integer> served = quotes.quote("ETH");

            assertThat(good.value()).isEqualTo(5);
            assertThat(judgedFailure.value()).isEqualTo(-1);
            assertThat(served.status()).isEqualTo(ExecutionStatus.SUCCESS);
            assertThat(served.fallbackUsed()).isTrue();
            assertThat(served.value()).as("the last good value").isEqualTo(5);
        });
    }

    /**
     * Two overloads name one breaker with one expression over their parameter
     * {@code minimum}, at another position in each: a result below the minimum is a
     * failure of either, and neither call ends in error.
     */
    @Test
    void overloadsThatShareABreakerAreEachJudgedWithTheirOwnParameters() {
        this.contextRunner.run((context) -> {
            Stock stock = context.getBean(Stock.class);
            CircuitBreaker breaker = context.getBean(ResilienceRegistry.class)
                .findCircuitBreaker("stock")
                .orElseThrow();

            assertThat(stock.count("A-1", 5)).isEqualTo(3);
            assertThat(stock.count(5)).isEqualTo(3);

            assertThat(breaker.metrics().failedCallsTotal()).as("both results below their minimum").isEqualTo(2);
            assertThat(breaker.metrics().successfulCallsTotal()).isZero();
        });
    }

    static class Stock {

        @CircuitGuarded(name = "stock", failOnResult = "#result < #minimum")
        public int count(String sku, int minimum) {
            return 3;
        }

        @CircuitGuarded(name = "stock", failOnResult = "#result < #minimum")
        public int count(int minimum) {
            return 3;
        }

    }

    static class Quotes {

        private final Deque<Integer> answers = new ConcurrentLinkedDeque<>();

        public void answer(Integer... values) {
            for (Integer value : values) {
                this.answers.add(value);
            }
        }

        @CircuitGuarded(name = "quotes", failOnResult = "#result < 0")
        @Fallback(lastGood = "1h")
        public ExecutionResult<Integer> quote(String symbol) {
            Integer next = this.answers.poll();
            if (next == null) {
                throw new IllegalStateException("quote service down");
            }
            return ExecutionResult.success(next);
        }

    }

}
