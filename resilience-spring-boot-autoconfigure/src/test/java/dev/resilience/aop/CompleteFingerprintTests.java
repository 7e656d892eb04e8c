package dev.resilience.aop;

import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.annotation.JsonSerialize;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The default fingerprint covers the arguments' full values, not the application's JSON
 * view of them: two calls with one key that differ only in a field the view hides are a
 * mismatch, never a replay of the other call's result.
 */
class CompleteFingerprintTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(Payments.class);

    @Test
    void argumentsDifferingOnlyInAJsonIgnoredFieldAreAMismatch() {
        this.contextRunner.run((context) -> {
            Payments payments = context.getBean(Payments.class);
            payments.login("key-1", new Login("alice", "first-password"));

            assertThatExceptionOfType(IdempotencyKeyMismatchException.class)
                .isThrownBy(() -> payments.login("key-1", new Login("alice", "second-password")));
            assertThat(payments.runs()).isOne();
        });
    }

    @Test
    void argumentsDifferingOnlyInAWriteOnlyPropertyAreAMismatch() {
        this.contextRunner.run((context) -> {
            Payments payments = context.getBean(Payments.class);
            payments.charge("key-1", new Card("alice", "4111111111111111"));

            assertThatExceptionOfType(IdempotencyKeyMismatchException.class)
                .isThrownBy(() -> payments.charge("key-1", new Card("alice", "5500000000000004")));
            assertThat(payments.runs()).isOne();
        });
    }

    @Test
    void argumentsDifferingOnlyInAMaskedFieldAreAMismatch() {
        this.contextRunner.run((context) -> {
            Payments payments = context.getBean(Payments.class);
            payments.transfer("key-1", new Transfer("DE02120300000000202051"));

            assertThatExceptionOfType(IdempotencyKeyMismatchException.class)
                .isThrownBy(() -> payments.transfer("key-1", new Transfer("DE02500105170137075030")));
            assertThat(payments.runs()).isOne();
        });
    }

    @Test
    void equalArgumentsWithHiddenFieldsReplay() {
        this.contextRunner.run((context) -> {
            Payments payments = context.getBean(Payments.class);
            String first = payments.charge("key-1", new Card("alice", "4111111111111111"));

            assertThat(payments.charge("key-1", new Card("alice", "4111111111111111"))).isEqualTo(first);
            assertThat(payments.runs()).isOne();
        });
    }

    static class Payments {

        private final AtomicInteger runs = new AtomicInteger();

        @Idempotent(key = "#key")
        public String login(String key, Login login) {
            return "session-" + this.runs.incrementAndGet();
        }

        @Idempotent(key = "#key")
        public String charge(String key, Card card) {
            return "charge-" + this.runs.incrementAndGet();
        }

        @Idempotent(key = "#key")
        public String transfer(String key, Transfer transfer) {
            return "transfer-" + this.runs.incrementAndGet();
        }

        int runs() {
            return this.runs.get();
        }

    }

    public static final class Login {

        private final String user;

        @JsonIgnore
        private final String password;

        Login(String user, String password) {
            this.user = user;
            this.password = password;
        }

        public String getUser() {
            return this.user;
        }

        @JsonIgnore
        public String getPassword() {
            return this.password;
        }

    }

    public record Card(String holder, @JsonProperty(access = JsonProperty.Access.WRITE_ONLY) String number) {
    }

    public record Transfer(@JsonSerialize(using = Masking.class) String iban) {
    }

    static final class Masking extends ValueSerializer<String> {

        @Override
        public void serialize(String value, JsonGenerator generator, SerializationContext context) {
            generator.writeString("****");
        }

    }

}
