package dev.resilience.aop;

import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What result expressions refer to beyond {@code #result} and the parameters: beans
 * resolve at each call, {@code @circuitBreakers} is asked about breakers that exist once
 * the startup is over, types load; what cannot resolve, and a method with no value to
 * judge, fail the start.
 */
class ResultExpressionReferencesTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withPropertyValues("resilience.retry.defaults.budget.enabled=false");

    @Test
    void beanReferenceIsResolvedAtEachCallAndReadsTheBreakerOfAYamlInstance() {
        this.contextRunner.withPropertyValues("resilience.circuit-breaker.instances.ledger-db.minimum-calls=5")
            .withBean(Ledger.class)
            .run((context) -> {
                Ledger ledger = context.getBean(Ledger.class);
                ledger.answer("PENDING", "DONE", "PENDING", "DONE");

                ExecutionResult<String> whileClosed = ledger.status("order-1");
                context.getBean(ResilienceRegistry.class)
                    .findCircuitBreaker("ledger-db")
                    .orElseThrow()
                    .transitionTo(CircuitBreakerState.FORCED_OPEN);
                ExecutionResult<String> whileOpen = ledger.status("order-2");

                assertThat(whileClosed.value()).isEqualTo("DONE");
                assertThat(whileClosed.attempts()).isEqualTo(2);
                assertThat(whileOpen.status()).isEqualTo(ExecutionStatus.SUCCESS);
                assertThat(whileOpen.value()).isEqualTo("PENDING");
                assertThat(whileOpen.attempts()).isOne();
            });
    }

    @Test
    void breakerDeclaredByAMethodCompiledLaterIsFound() {
        this.contextRunner.withBean(Ledger.class).withBean(LedgerDatabase.class).run((context) -> {
            assertThat(context).hasNotFailed();
            Ledger ledger = context.getBean(Ledger.class);
            ledger.answer("PENDING", "DONE");

            assertThat(ledger.status("order-1").attempts()).isEqualTo(2);
        });
    }

    @Test
    void askingTheBreakersAboutOneThatDoesNotExistFailsTheStartNamingTheBreakers() {
        this.contextRunner.withBean("ledger", Ledger.class)
            .withBean(Settlements.class)
            .run((context) -> assertThat(analysisOf(context)).contains("bean 'ledger', method Ledger#status")
                .contains("it asks @circuitBreakers about 'ledger-db', and no circuit breaker is named so; "
                        + "the circuit breakers are [settlement]")
                .contains("declare 'ledger-db' with @CircuitGuarded(\"ledger-db\") or "
                        + "resilience.circuit-breaker.instances.ledger-db"));
    }

    @Test
    void referenceToABeanTheApplicationDoesNotHaveFailsTheStart() {
        this.contextRunner.withBean("ledger", UnknownBeanLedger.class)
            .run((context) -> assertThat(analysisOf(context)).contains("bean 'ledger', method UnknownBeanLedger#status")
                .contains("@Retryable(retryOnResult)")
                .contains("it refers to the bean @clearingHouse, and the application has no bean 'clearingHouse'"));
    }

    @Test
    void typeReferenceToAClassOnTheClassPathIsEvaluated() {
        this.contextRunner.withBean(TypedLedger.class).run((context) -> {
            TypedLedger ledger = context.getBean(TypedLedger.class);

            assertThat(ledger.balance(-1)).isEqualTo(Integer.MIN_VALUE);
            assertThat(context.getBean(ResilienceRegistry.class)
                .findCircuitBreaker("balances")
                .orElseThrow()
                .metrics()
                .failedCallsTotal()).isOne();
        });
    }

    @Test
    void resultPredicateOfAStageOfNothingFailsTheStart() {
        this.contextRunner.withBean("mailer", AsyncMailer.class)
            .run((context) -> assertThat(analysisOf(context)).contains("bean 'mailer', method AsyncMailer#send")
                .contains("@Retryable(retryOnResult)")
                .contains("the method returns no value (java.util.concurrent.CompletableFuture<java.lang.Void>)"));
    }

    @Test
    void resultPredicateOfAnExecutionResultOfNothingFailsTheStart() {
        this.contextRunner.withBean("mailer", EnvelopeMailer.class)
            .run((context) -> assertThat(analysisOf(context)).contains("bean 'mailer', method EnvelopeMailer#send")
                .contains("@CircuitGuarded(failOnResult)")
                .contains("the method returns no value"));
    }

    private static String analysisOf(AssertableApplicationContext context) {
        assertThat(context).as("the start should have failed").hasFailed();
        return FailureAnalyses.describe(context.getStartupFailure());
    }

    static class Ledger {

        private final Deque<String> answers = new ConcurrentLinkedDeque<>();

        void answer(String... values) {
            this.answers.addAll(List.of(values));
        }

        @Retryable(name = "ledger", maxAttempts = 3, delay = "0",
                retryOnResult = "@circuitBreakers.allows('ledger-db') and #result == 'PENDING'")
        public ExecutionResult<String> status(String orderId) {
            return ExecutionResult.success(this.answers.poll());
        }

    }

    static class LedgerDatabase {

        @CircuitGuarded("ledger-db")
        public String read(String key) {
            return key;
        }

    }

    static class Settlements {

        @CircuitGuarded("settlement")
        public String settle(String orderId) {
            return orderId;
        }

    }

    static class UnknownBeanLedger {

        @Retryable(name = "ledger", retryOnResult = "@clearingHouse.isOpen() and #result == 'PENDING'")
        public String status(String orderId) {
            return orderId;
        }

    }

    static class TypedLedger {

        @CircuitGuarded(name = "balances", failOnResult = "#result == T(java.lang.Integer).MIN_VALUE")
        public int balance(int account) {
            return (account < 0) ? Integer.MIN_VALUE : account;
        }

    }

    static class AsyncMailer {

        @Retryable(name = "mail", retryOnResult = "#result == null")
        public CompletableFuture<Void> send(String message) {
            return CompletableFuture.completedFuture(null);
        }

    }

    static class EnvelopeMailer {

        @CircuitGuarded(name = "mail", failOnResult = "#result == null")
        public ExecutionResult<Void> send(String message) {
            return ExecutionResult.success(null);
        }

    }

}
