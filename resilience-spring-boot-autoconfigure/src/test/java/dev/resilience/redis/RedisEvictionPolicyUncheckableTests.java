package dev.resilience.redis;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceRedisAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis whose {@code maxmemory-policy} cannot be read (CONFIG renamed away, as managed
 * offers do, or a Redis that does not answer) neither fails nor holds up the start, and
 * is said to be unchecked once, not again on every command of the stores.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisEvictionPolicyUncheckableTests {

    private static final String NOT_CHECKED = "Could not check Redis's maxmemory-policy";

    @RegisterExtension
    static final RedisServer withoutConfig = new RedisServer("--rename-command", "CONFIG", "");

    @RegisterExtension
    static final RedisServer frozen = new RedisServer();

    private static ApplicationContextRunner contextRunner() {
        return new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                            DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
            .withPropertyValues(FingerprintSecret.PROPERTY)
            .withPropertyValues("resilience.idempotency.store=redis", "resilience.dead-letter.store=redis")
            .withBean(PaymentService.class, () -> new PaymentService(new AtomicInteger()));
    }

    @Test
    void redisRefusingConfigIsSaidUncheckedOnceNotOnEveryCommand(CapturedOutput output) {
        contextRunner().withPropertyValues(withoutConfig.springProperties().toArray(String[]::new)).run((context) -> {
            assertThat(context).hasNotFailed();
            PaymentService payments = context.getBean(PaymentService.class);
            for (int i = 0; i < 10; i++) {
                payments.pay("order-" + i, 100, "key-" + i);
            }
            await().during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(2))
                .until(() -> occurrences(output.toString(), NOT_CHECKED) == 1);
        });
    }

    @Test
    void redisThatDoesNotAnswerDoesNotHoldUpTheStart(CapturedOutput output) {
        frozen.pause();
        try {
            long started = System.nanoTime();
            contextRunner()
                .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + frozen.port(),
                        "resilience.idempotency.store-timeout=500ms", "resilience.dead-letter.store-timeout=500ms")
                .run((context) -> {
                    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
                    assertThat(context).hasNotFailed();
                    assertThat(output).contains(NOT_CHECKED);
                    frozen.resume();
                });
        }
        finally {
            frozen.resume();
        }
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }

}
