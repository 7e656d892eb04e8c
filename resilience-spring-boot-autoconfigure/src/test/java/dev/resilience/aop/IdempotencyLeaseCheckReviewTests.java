package dev.resilience.aop;

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
 * The startup check of an idempotent method's worst case against its lease (DESIGN
 * section 11: a WARN when {@code in-progress-ttl} is shorter than the method's worst-case
 * duration, or the duration is unbounded) must count {@code @TimeLimited}, which bounds
 * every attempt (the shorter of it and the retry's {@code attempt-timeout} applies), and
 * must not crash the start on a worst case of centuries.
 */
@ExtendWith(OutputCaptureExtension.class)
class IdempotencyLeaseCheckReviewTests {

    private static final String OUTLIVES = "may outlive its lease";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class);

    /** A method bounded by a 2s time limit, well within a 60s lease, is not warned of. */
    @Test
    void timeLimitedMethodWithinTheLeaseIsNotWarnedOfAsUnbounded(CapturedOutput output) {
        this.contextRunner.withPropertyValues("resilience.idempotency.in-progress-ttl=60s")
            .withBean("ledger", TimeLimitedLedger.class)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(output).doesNotContain(OUTLIVES);
            });
    }

    /**
     * Three attempts cut to 2s by the time limit and two waits of at most 1s take at most
     * 8s, within a 15s lease; the retry's own 10s attempt timeout does not apply.
     */
    @Test
    void retriedMethodWhoseTimeLimitKeepsItWithinTheLeaseIsNotWarnedOf(CapturedOutput output) {
        this.contextRunner.withPropertyValues("resilience.idempotency.in-progress-ttl=15s")
            .withBean("ledger", RetriedTimeLimitedLedger.class)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(output).doesNotContain(OUTLIVES);
            });
    }

    /** An attempt timeout of 300 years is warned of; it does not crash the start. */
    @Test
    void attemptTimeoutOfCenturiesIsAWarningNotAFailedStart(CapturedOutput output) {
        this.contextRunner.withBean("ledger", CenturiesLedger.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(output).contains("Idempotent method CenturiesLedger#post of bean 'ledger' " + OUTLIVES);
        });
    }

    static class TimeLimitedLedger {

        @Idempotent(key = "#key")
        @TimeLimited(name = "ledger", timeout = "2s")
        public String post(String key) {
            return "posted " + key;
        }

    }

    static class RetriedTimeLimitedLedger {

        @Idempotent(key = "#key")
        @Retryable(name = "ledger", maxAttempts = 3, delay = "100ms", maxDelay = "1s", attemptTimeout = "10s")
        @TimeLimited(name = "ledger", timeout = "2s")
        public String post(String key) {
            return "posted " + key;
        }

    }

    static class CenturiesLedger {

        @Idempotent(key = "#key")
        @Retryable(name = "ledger", attemptTimeout = "109500d")
        public String post(String key) {
            return "posted " + key;
        }

    }

}
