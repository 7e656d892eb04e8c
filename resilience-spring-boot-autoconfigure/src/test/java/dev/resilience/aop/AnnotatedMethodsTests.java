package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@SpringBootTest(classes = AnnotatedMethodsTests.TestApplication.class,
        properties = { "resilience.retry.defaults.jitter=none", "resilience.retry.instances.payment.max-attempts=4",
                "resilience.circuit-breaker.instances.gateway.minimum-calls=4",
                "resilience.circuit-breaker.instances.gateway.sliding-window-size=4",
                "resilience.async.executor=callerRunsExecutor" })
class AnnotatedMethodsTests {

    @Autowired
    private PaymentTestService service;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private ResilienceRegistry registry;

    @Autowired
    private DeadLetterStore deadLetters;

    private int sleepsBefore;

    @BeforeEach
    void resetDownstreamAndBreaker() {
        assertThat(AopUtils.isAopProxy(this.service)).isTrue();
        this.service.reset();
        this.registry.findCircuitBreaker("gateway").orElseThrow().transitionTo(CircuitBreakerState.CLOSED);
        this.sleepsBefore = this.clock.sleeps().size();
    }

    private List<Duration> sleeps() {
        List<Duration> all = this.clock.sleeps();
        return all.subList(this.sleepsBefore, all.size());
    }

    @Test
    void failedAttemptsAreRetriedUntilOneSucceeds() throws Exception {
        this.service.failNext(new IOException("1"), new IOException("2"), new IOException("3"));

        assertThat(this.service.pay("o-1")).isEqualTo("receipt:o-1");
        assertThat(this.service.downstreamCalls()).isEqualTo(4);
        assertThat(sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400));
    }

    @Test
    void yamlInstanceOverridesTheAnnotationsMaxAttempts() {
        this.service.failNext(new IOException("1"), new IOException("2"), new IOException("3"), new IOException("4"),
                new IOException("5"));

        assertThatExceptionOfType(IOException.class).isThrownBy(() -> this.service.pay("o-1"))
            .withMessage("4")
            .satisfies((ex) -> assertThat(ex.getSuppressed()).isEmpty());
        assertThat(this.service.downstreamCalls()).isEqualTo(4);
    }

    @Test
    void annotationAttributesApplyWhereYamlIsSilent() {
        this.service.failNext(new IllegalArgumentException("declined"));

        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> this.service.refund("o-1"));
        assertThat(this.service.downstreamCalls()).isEqualTo(1);
    }

    @Test
    void everyRetryAttemptIsRecordedByTheBreaker() throws Exception {
        this.service.failNext(new IOException("1"), new IOException("2"));

        assertThat(this.service.guardedPay("o-1")).isEqualTo("receipt:o-1");
        CircuitBreaker breaker = this.registry.findCircuitBreaker("gateway").orElseThrow();
        assertThat(breaker.metrics().bufferedCalls()).isEqualTo(3);
        assertThat(breaker.metrics().failedCalls()).isEqualTo(2);
    }

    @Test
    void openBreakerGoesStraightToTheFallbackChainWithoutRetrying() throws Exception {
        this.registry.findCircuitBreaker("gateway").orElseThrow().transitionTo(CircuitBreakerState.FORCED_OPEN);

        assertThat(this.service.guardedPay("o-1")).isEqualTo("backup:o-1");
        assertThat(this.service.downstreamCalls()).isEqualTo(0);
        assertThat(this.service.fallbacksTried()).containsExactly("payWithBackup:CallNotPermittedException");
        assertThat(sleeps()).isEmpty();
    }

    @Test
    void fallbacksAreTriedInOrderSkippingThoseWhoseFailureTypeDoesNotMatch() throws Exception {
        this.service.failNext(new IOException("1"), new IOException("2"), new IOException("3"));

        assertThat(this.service.guardedPay("o-1")).isEqualTo("deferred:o-1");
        assertThat(this.service.fallbacksTried()).containsExactly("payWithBackup:IOException", "defer");
    }

    @Test
    void executionResultReturnTypeGetsTheCompleteAccountAndNeverThrows() throws Exception {
        this.service.failNext(new IOException("1"));
        ExecutionResult<String> success = this.service.payWithResult("o-1");
        this.service.failNext(new IOException("a"), new IOException("b"), new IOException("c"));
        ExecutionResult<String> exhausted = this.service.payWithResult("o-2");

        assertThat(success.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(success.value()).isEqualTo("receipt:o-1");
        assertThat(success.attempts()).isEqualTo(2);
        assertThat(success.attemptFailures()).hasSize(1);
        assertThat(exhausted.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(exhausted.attempts()).isEqualTo(3);
        assertThat(exhausted.error()).hasMessage("c");
    }

    @Test
    void completableFutureIsRetriedOnTheSchedulerWithoutBlockingTheCaller() {
        this.service.failNext(new IOException("1"), new IOException("2"));

        CompletableFuture<String> future = this.service.payAsync("o-1");

        assertThat(future).isNotDone();
        assertThat(this.service.downstreamCalls()).isEqualTo(1);
        assertThat(sleeps()).isEmpty();
        this.clock.advance(Duration.ofSeconds(1));
        assertThat(this.service.downstreamCalls()).isEqualTo(2);
        this.clock.advance(Duration.ofSeconds(2));
        assertThat(future).isCompletedWithValue("receipt:o-1");
    }

    @Test
    void idempotentMethodRunsOncePerKeyAndReplaysAfterwards() throws Exception {
        String first = this.service.payOnce("o-1", 1250, "idempotent-key-1");
        String second = this.service.payOnce("o-1", 1250, "idempotent-key-1");

        assertThat(first).isEqualTo("receipt:o-1:1250");
        assertThat(second).isEqualTo(first);
        assertThat(this.service.downstreamCalls()).isEqualTo(1);
        assertThatExceptionOfType(IdempotencyKeyMismatchException.class)
            .isThrownBy(() -> this.service.payOnce("o-1", 9999, "idempotent-key-1"));
        assertThat(this.service.downstreamCalls()).isEqualTo(1);
    }

    @Test
    void equalRequestObjectsWithoutToStringHaveEqualFingerprints() throws Exception {
        String first = this.service.payRequest(new PaymentTestService.PaymentRequest("o-7", 700), "request-key-1");
        String replay = this.service.payRequest(new PaymentTestService.PaymentRequest("o-7", 700), "request-key-1");

        assertThat(replay).isEqualTo(first);
        assertThat(this.service.downstreamCalls()).isEqualTo(1);
        assertThatExceptionOfType(IdempotencyKeyMismatchException.class).isThrownBy(
                () -> this.service.payRequest(new PaymentTestService.PaymentRequest("o-7", 701), "request-key-1"));
    }

    @Test
    void deadLettersShowArgumentsAsJson() {
        assertThatExceptionOfType(IOException.class)
            .isThrownBy(() -> this.service.payAndFail(new PaymentTestService.PaymentRequest("o-9", 900)));

        assertThat(this.deadLetters.list(10)).filteredOn((letter) -> letter.name().equals("dead-lettered"))
            .singleElement()
            .satisfies((letter) -> assertThat(letter.arguments())
                .containsExactly("{\"amountCents\":900,\"orderId\":\"o-9\"}"));
    }

    @Test
    void methodsWithoutAnnotationsAreNotProtected() {
        this.service.failNext(new IOException("1"));

        assertThatExceptionOfType(IOException.class).isThrownBy(() -> this.service.unprotected("o-1"));
        assertThat(this.service.downstreamCalls()).isEqualTo(1);
        assertThat(this.registry.statistics()).doesNotContainKey("PaymentTestService#unprotected");
    }

    @Test
    void everyAnnotatedInstanceExistsFromTheStart() {
        assertThat(this.registry.retryPolicies()).containsKeys("payment", "refund", "guarded", "envelope", "async",
                "idempotent");
        assertThat(this.registry.circuitBreakers()).containsKey("gateway");
        assertThat(this.registry.retryPolicies().get("payment").maxAttempts()).isEqualTo(4);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean
        Executor callerRunsExecutor() {
            return Runnable::run;
        }

        @Bean
        PaymentTestService paymentTestService() {
            return new PaymentTestService();
        }

    }

}
