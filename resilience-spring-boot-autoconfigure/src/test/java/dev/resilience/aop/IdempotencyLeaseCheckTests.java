package dev.resilience.aop;

import dev.resilience.annotation.Hedged;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.annotation.TimeLimited;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Startup warns of an idempotent method whose calls may outlive the in-progress lease,
 * after which another call with the same key could run the method again.
 */
@ExtendWith(OutputCaptureExtension.class)
class IdempotencyLeaseCheckTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withPropertyValues("resilience.idempotency.in-progress-ttl=5s");

    @Test
    void attemptsAndWaitsLongerThanTheLeaseAreAWarningNamingTheMethod(CapturedOutput output) {
        this.contextRunner.withBean("payments", SlowPayments.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(output).contains("Idempotent method SlowPayments#pay of bean 'payments' may outlive its lease: "
                    + "resilience.idempotency.in-progress-ttl is 5s, but a call can take 8s (3 attempts of at most 2s "
                    + "and 2 waits of at most 1s)");
        });
    }

    @Test
    void methodWithoutRetryableIsUnboundedAndAWarning(CapturedOutput output) {
        this.contextRunner.withBean("payments", UnboundedPayments.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(output).contains("Idempotent method UnboundedPayments#pay of bean 'payments' may outlive its "
                    + "lease: resilience.idempotency.in-progress-ttl is 5s, but nothing bounds how long a call takes");
        });
    }

    @Test
    void retryWithoutAttemptTimeoutOrMaxDurationIsUnboundedAndAWarning(CapturedOutput output) {
        this.contextRunner.withBean("payments", RetriedPayments.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(output).contains("Idempotent method RetriedPayments#pay of bean 'payments' may outlive its "
                    + "lease: resilience.idempotency.in-progress-ttl is 5s, but retry instance 'retried' sets neither "
                    + "attempt-timeout nor max-duration");
        });
    }

    @Test
    void maxDurationFromYamlWithinTheLeaseIsSilent(CapturedOutput output) {
        this.contextRunner.withBean("payments", SlowPayments.class)
            .withPropertyValues("resilience.retry.instances.slow.max-duration=5s")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(output).doesNotContain("may outlive its lease");
            });
    }

    @Test
    void attemptsAndWaitsWithinTheLeaseAreSilent(CapturedOutput output) {
        this.contextRunner.withBean("payments", QuickPayments.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(output).doesNotContain("may outlive its lease");
        });
    }

    @Test
    void timeLimitWithinTheLeaseBoundsAMethodWithoutRetryAndIsSilent(CapturedOutput output) {
        this.contextRunner.withBean("payments", TimeLimitedPayments.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(output).doesNotContain("may outlive its lease");
        });
    }

    @Test
    void timeLimitLongerThanTheLeaseIsAWarningNamingTheTimeLimiter(CapturedOutput output) {
        this.contextRunner.withBean("payments", TimeLimitedPayments.class)
            .withPropertyValues("resilience.time-limiter.instances.limited.timeout=8s")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(output).contains("Idempotent method TimeLimitedPayments#pay of bean 'payments' may outlive "
                        + "its lease: resilience.idempotency.in-progress-ttl is 5s, but a call can take 8s (one "
                        + "attempt of at most 8s). A call still running when its lease ends lets another call with "
                        + "the same key run the method again. Set resilience.time-limiter.instances.limited.timeout "
                        + "to at most the lease, or raise resilience.idempotency.in-progress-ttl.");
                assertThat(output).doesNotContain("nothing bounds");
            });
    }

    @Test
    void timeLimitBoundsEachAttemptOfARetryWithoutAttemptTimeout(CapturedOutput output) {
        this.contextRunner.withBean("payments", TimeLimitedRetriedPayments.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(output).contains("Idempotent method TimeLimitedRetriedPayments#pay of bean 'payments' may "
                    + "outlive its lease: resilience.idempotency.in-progress-ttl is 5s, but a call can take 8s (3 "
                    + "attempts of at most 2s and 2 waits of at most 1s)");
            assertThat(output).doesNotContain("sets neither attempt-timeout nor max-duration");
        });
    }

    @Test
    void aTimeLimitLongerThanTheAttemptTimeoutLeavesTheAttemptTimeoutAsTheBound(CapturedOutput output) {
        this.contextRunner.withBean("payments", TimeLimitedRetriedPayments.class)
            .withPropertyValues("resilience.retry.instances.limited-retry.attempt-timeout=1s")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(output).as("3 attempts of at most 1s and 2 waits of at most 1s")
                    .doesNotContain("may outlive its lease");
            });
    }

    @Test
    void anAttemptTimeoutLongerThanTheTimeLimitLeavesTheTimeLimitAsTheBound(CapturedOutput output) {
        this.contextRunner.withBean("payments", TimeLimitedRetriedPayments.class)
            .withPropertyValues("resilience.retry.instances.limited-retry.attempt-timeout=10s")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(output)
                    .contains("but a call can take 8s (3 attempts of at most 2s and 2 waits of at most 1s)");
            });
    }

    @Test
    void hedgesOfATimeLimitedAttemptAddTheLastHedgesStartToItsWorstCase(CapturedOutput output) {
        this.contextRunner.withBean("payments", HedgedPayments.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(output).contains("Idempotent method HedgedPayments#quote of bean 'payments' may outlive its "
                    + "lease: resilience.idempotency.in-progress-ttl is 5s, but a call can take 6s (one attempt of at "
                    + "most 6s: tries of at most 4s, the last of 2 hedges starting after 2s)")
                .contains("Set resilience.time-limiter.instances.hedged.timeout to at most the lease less the last "
                        + "hedge's start, or raise resilience.idempotency.in-progress-ttl.");
        });
    }

    @Test
    void aTimeLimitedAttemptWhoseLastHedgeEndsWithinTheLeaseIsSilent(CapturedOutput output) {
        this.contextRunner.withBean("payments", HedgedPayments.class)
            .withPropertyValues("resilience.hedging.instances.hedged.max-hedges=1")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(output).as("4s and one hedge after 1s").doesNotContain("may outlive its lease");
            });
    }

    static class SlowPayments {

        @Idempotent(key = "#key")
        @Retryable(value = "slow", maxAttempts = 3, attemptTimeout = "2s", delay = "100ms", maxDelay = "1s")
        public String pay(String key) {
            return key;
        }

    }

    static class UnboundedPayments {

        @Idempotent(key = "#key")
        public String pay(String key) {
            return key;
        }

    }

    static class RetriedPayments {

        @Idempotent(key = "#key")
        @Retryable(value = "retried", maxAttempts = 3)
        public String pay(String key) {
            return key;
        }

    }

    static class TimeLimitedPayments {

        @Idempotent(key = "#key")
        @TimeLimited(value = "limited", timeout = "4s")
        public String pay(String key) {
            return key;
        }

    }

    static class TimeLimitedRetriedPayments {

        @Idempotent(key = "#key")
        @Retryable(value = "limited-retry", maxAttempts = 3, delay = "100ms", maxDelay = "1s")
        @TimeLimited(value = "limited-retry", timeout = "2s")
        public String pay(String key) {
            return key;
        }

    }

    static class HedgedPayments {

        @Idempotent(key = "#key")
        @TimeLimited(value = "hedged", timeout = "4s")
        @Hedged(value = "hedged", delay = "1s", maxHedges = 2)
        public String quote(String key) {
            return key;
        }

    }

    static class QuickPayments {

        @Idempotent(key = "#key")
        @Retryable(value = "quick", maxAttempts = 2, attemptTimeout = "2s", delay = "100ms", maxDelay = "1s")
        public String pay(String key) {
            return key;
        }

    }

}
