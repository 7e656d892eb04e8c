package dev.resilience.redis;

import java.time.Duration;

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
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A Redis whose {@code maxmemory-policy} may evict the stores' keys is named in a WARN at
 * startup and again after a reconnection, once for both stores; one that never evicts is
 * not.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisEvictionPolicyWarningTests {

    private static final String WARNING = "maxmemory-policy";

    @RegisterExtension
    static final RedisServer evicting = new RedisServer("--maxmemory-policy", "volatile-lru");

    @RegisterExtension
    static final RedisServer notEvicting = new RedisServer("--maxmemory-policy", "noeviction");

    private static ApplicationContextRunner contextRunner(RedisServer redis) {
        return new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceRedisAutoConfiguration.class,
                            DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class))
            .withPropertyValues(redis.springProperties().toArray(String[]::new))
            .withPropertyValues(FingerprintSecret.PROPERTY)
            .withPropertyValues("resilience.idempotency.store=redis", "resilience.dead-letter.store=redis")
            .withBean(PaymentService.class, () -> new PaymentService(new java.util.concurrent.atomic.AtomicInteger()));
    }

    @Test
    void evictingPolicyGivesOneWarningAtStartupForBothStores(CapturedOutput output) {
        contextRunner(evicting).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(output).contains("WARN").contains("maxmemory-policy 'volatile-lru'").contains("noeviction");
            assertThat(occurrences(output.getOut() + output.getErr(), "maxmemory-policy 'volatile-lru'")).isOne();
        });
    }

    @Test
    void evictingPolicyIsWarnedAboutAgainAfterAReconnection(CapturedOutput output) {
        contextRunner(evicting).run((context) -> {
            PaymentService payments = context.getBean(PaymentService.class);
            payments.pay("order-1", 100, "key-1");
            assertThat(occurrences(output.toString(), "maxmemory-policy 'volatile-lru'")).isOne();

            evicting.stop();
            assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> payments.pay("order-2", 100, "key-2"));
            evicting.start();
            await().atMost(Duration.ofSeconds(10))
                .ignoreExceptions()
                .pollInterval(Duration.ofMillis(100))
                .until(() -> payments.pay("order-2", 100, "key-2") != null);

            await().atMost(Duration.ofSeconds(5))
                .until(() -> occurrences(output.toString(), "maxmemory-policy 'volatile-lru'") == 2);
        });
    }

    @Test
    void noevictionGivesNoWarning(CapturedOutput output) {
        contextRunner(notEvicting).run((context) -> {
            assertThat(context).hasNotFailed();
            context.getBean(PaymentService.class).pay("order-1", 100, "key-1");
            assertThat(output).doesNotContain(WARNING);
        });
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }

}
