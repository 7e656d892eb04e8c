package dev.resilience.aop;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Retryable;
import dev.resilience.annotation.TimeLimited;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.AttemptTimeoutException;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @TimeLimited} through the proxy, on a virtual clock: a method moves the clock
 * past its own limit and then blocks on a latch that nobody opens, so only the limit's
 * interrupt can end its wait.
 */
class TimeLimitedAnnotationTests {

    private static final long AWAIT_SECONDS = 30;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class, () -> this.clock)
        .withBean("callerRunsExecutor", java.util.concurrent.Executor.class, () -> Runnable::run)
        .withPropertyValues("resilience.async.executor=callerRunsExecutor");

    @Test
    void overrunningSyncCallIsInterruptedEndsAsTimeoutAndIsNoDeadLetter() {
        this.contextRunner.withBean(Ledger.class).run((context) -> {
            Ledger ledger = context.getBean(Ledger.class);

            ExecutionResult<String> result = ledger.balance("acc-1");

            assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
            assertThat(result.error()).isInstanceOfSatisfying(AttemptTimeoutException.class,
                    (ex) -> assertThat(ex.timeout()).isEqualTo(Duration.ofMillis(200)));
            assertThat(ledger.interrupted()).isTrue();
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
            assertThat(context.getBean(DeadLetterStore.class).list(10)).isEmpty();
        });
    }

    @Test
    void overrunningSyncCallGoesToTheFallbacks() {
        this.contextRunner.withBean(Ledger.class).run((context) -> {
            Ledger ledger = context.getBean(Ledger.class);

            assertThat(ledger.statement("acc-2")).isEqualTo("cached statement of acc-2 (AttemptTimeoutException)");
            assertThat(ledger.interrupted()).isTrue();
        });
    }

    @Test
    void overrunningAsyncCallHasItsStageCancelled() {
        this.contextRunner.withBean(Ledger.class).run((context) -> {
            Ledger ledger = context.getBean(Ledger.class);

            CompletableFuture<String> future = ledger.transfer("acc-3");
            assertThat(future).isNotDone();
            this.clock.advance(Duration.ofMillis(300));

            assertThat(future).isCompletedExceptionally();
            assertThatExceptionOfType(Exception.class).isThrownBy(future::join)
                .havingRootCause()
                .isInstanceOf(AttemptTimeoutException.class);
            assertThat(ledger.pending()).isCancelled();
        });
    }

    @Test
    void callWithinItsLimitReturnsItsValue() {
        this.contextRunner.withBean(Ledger.class).run((context) -> {
            Ledger ledger = context.getBean(Ledger.class);

            assertThat(ledger.quick("acc-4")).isEqualTo("quick acc-4");
            assertThat(this.clock.pendingTasks()).isZero();
        });
    }

    @Test
    void withRetryableAttemptTimeoutTheShorterApplies() {
        this.contextRunner.withBean(Ledger.class).run((context) -> {
            Ledger ledger = context.getBean(Ledger.class);

            ExecutionResult<String> result = ledger.audit("acc-5");

            assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
            assertThat(result.attempts()).isEqualTo(2);
            assertThat(result.error()).isInstanceOfSatisfying(AttemptTimeoutException.class,
                    (ex) -> assertThat(ex.timeout()).isEqualTo(Duration.ofMillis(100)));
        });
    }

    @Test
    void yamlInstanceOverridesTheAnnotationWhichOverridesTheDefaults() {
        this.contextRunner.withBean(Ledger.class)
            .withPropertyValues("resilience.time-limiter.instances.statements.timeout=1s",
                    "resilience.time-limiter.defaults.timeout=2s")
            .run((context) -> {
                ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
                assertThat(registry.timeLimit("statements", null)).isEqualTo(Duration.ofSeconds(1));
                assertThat(registry.timeLimit("balances", null)).isEqualTo(Duration.ofMillis(200));
                assertThat(registry.timeLimit("Ledger#quick", null)).isEqualTo(Duration.ofSeconds(2));
            });
    }

    @Test
    void withoutAnySettingTheLimitIsFiveSeconds() {
        this.contextRunner.withBean(Ledger.class)
            .run((context) -> assertThat(context.getBean(ResilienceRegistry.class).timeLimit("Ledger#quick", null))
                .isEqualTo(Duration.ofSeconds(5)));
    }

    @Test
    void nonPositiveYamlTimeoutFailsTheStart() {
        this.contextRunner.withBean(Ledger.class)
            .withPropertyValues("resilience.time-limiter.instances.statements.timeout=0s")
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("time-limiter.instances[statements].timeout"));
    }

    @Test
    void annotationTimeoutThatIsNoDurationFailsTheStartNamingBeanMethodAndAttribute() {
        this.contextRunner.withBean("badClock", BadClock.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("bean 'badClock', method BadClock#tick")
                .contains("@TimeLimited(timeout)")
                .contains("soon"));
    }

    @Test
    void negativeAnnotationTimeoutFailsTheStart() {
        this.contextRunner.withBean("negativeClock", NegativeClock.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("bean 'negativeClock', method NegativeClock#tick")
                .contains("@TimeLimited(timeout)")
                .contains("Use a positive duration"));
    }

    @Test
    void twoAnnotationsThatConfigureOneTimeLimiterOtherwiseFailTheStart() {
        this.contextRunner.withBean("ledger", Ledger.class)
            .withBean("otherLedger", OtherLedger.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Setting: @TimeLimited(timeout)")
                .contains("time limiter 'statements' is also configured by bean '")
                .contains("resilience.time-limiter.instances.statements.timeout"));
    }

    static class Ledger {

        volatile boolean interrupted;

        final AtomicReference<CompletableFuture<String>> pending = new AtomicReference<>();

        private final VirtualTimeSource clock;

        Ledger(VirtualTimeSource clock) {
            this.clock = clock;
        }

        public boolean interrupted() {
            return this.interrupted;
        }

        public CompletableFuture<String> pending() {
            return this.pending.get();
        }

        @TimeLimited(name = "balances", timeout = "200ms")
        public ExecutionResult<String> balance(String account) throws InterruptedException {
            block(Duration.ofSeconds(1));
            return ExecutionResult.success("balance of " + account);
        }

        @TimeLimited(name = "statements", timeout = "200ms")
        @Fallback("cachedStatement")
        public String statement(String account) throws InterruptedException {
            block(Duration.ofSeconds(3));
            return "statement of " + account;
        }

        String cachedStatement(String account, Throwable ex) {
            return "cached statement of " + account + " (" + ex.getClass().getSimpleName() + ")";
        }

        @TimeLimited(name = "transfers", timeout = "300ms")
        public CompletableFuture<String> transfer(String account) {
            CompletableFuture<String> future = new CompletableFuture<>();
            this.pending.set(future);
            return future;
        }

        @TimeLimited
        public String quick(String account) {
            return "quick " + account;
        }

        @Retryable(name = "audits", maxAttempts = 2, delay = "10ms", attemptTimeout = "1s")
        @TimeLimited(name = "audits", timeout = "100ms")
        public ExecutionResult<String> audit(String account) throws InterruptedException {
            block(Duration.ofMillis(500));
            return ExecutionResult.success("audited " + account);
        }

        private void block(Duration past) throws InterruptedException {
            this.interrupted = false;
            this.clock.advance(past);
            try {
                new CountDownLatch(1).await(AWAIT_SECONDS, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                this.interrupted = true;
                throw ex;
            }
        }

    }

    static class OtherLedger {

        @TimeLimited(name = "statements", timeout = "1s")
        public String statement(String account) {
            return account;
        }

    }

    static class BadClock {

        @TimeLimited(timeout = "soon")
        public String tick() {
            return "tick";
        }

    }

    static class NegativeClock {

        @TimeLimited(timeout = "-1s")
        public String tick() {
            return "tick";
        }

    }

}
