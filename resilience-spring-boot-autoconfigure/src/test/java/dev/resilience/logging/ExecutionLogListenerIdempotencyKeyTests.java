package dev.resilience.logging;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceLogsAutoConfiguration;
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The {@code dev.resilience.call} line of an idempotent call refused for its key: the
 * Javadoc of {@link ExecutionLogListener} and the README say a line never holds the
 * call's idempotency key, but the refusal's message quotes the key's first 40 characters,
 * the whole of a UUID.
 */
@ExtendWith(OutputCaptureExtension.class)
class ExecutionLogListenerIdempotencyKeyTests {

    private static final String KEY = "5b0f8f0e-7c53-4f5e-9d39-2a7c1e4b9a61";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class,
                ResilienceLogsAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(Payments.class);

    @Test
    void lineOfACallRefusedForItsKeyDoesNotHoldTheKey(CapturedOutput output) {
        this.contextRunner.run((context) -> {
            Payments payments = context.getBean(Payments.class);
            payments.pay(KEY, 100);

            assertThatExceptionOfType(IdempotencyKeyMismatchException.class).isThrownBy(() -> payments.pay(KEY, 200));

            assertThat(output.getOut()).contains("Call 'payment' ended").doesNotContain(KEY);
        });
    }

    static class Payments {

        @Idempotent(name = "payment", key = "#key")
        public String pay(String key, long amountCents) {
            return "paid " + amountCents;
        }

    }

}
