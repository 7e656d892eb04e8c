package dev.resilience.redrive;

import java.io.IOException;
import java.lang.reflect.Proxy;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.DeadLetterRedriveAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.redrive.RedriveResult.DeadLetterState;
import dev.resilience.redrive.RedriveResult.Outcome;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Review finding: a re-drive of a bean proxied by a JDK dynamic proxy.
 */
class DeadLetterRedriveJdkProxyReviewTests {

    private final SmtpMailer target = new SmtpMailer();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, DeadLetterRedriveAutoConfiguration.class))
        .withPropertyValues("spring.aop.proxy-target-class=false", "resilience.retry.instances.mail.max-attempts=1")
        .withBean(Mailer.class, () -> this.target);

    /**
     * With {@code spring.aop.proxy-target-class=false} a bean that implements an
     * interface gets a JDK dynamic proxy, and its annotated methods are protected through
     * it: the failed call writes a dead letter. The re-drive then calls the
     * implementation class's {@code Method} on the proxy, which is not an instance of
     * that class: every re-drive fails with {@code IllegalArgumentException} ("object is
     * not an instance of declaring class") without running the method, and is reported as
     * the call failing again (502), although the mail server is back.
     */
    @Test
    void letterOfABeanBehindAJdkProxyIsRedriven() {
        this.contextRunner.run((context) -> {
            Mailer mailer = context.getBean(Mailer.class);
            assertThat(Proxy.isProxyClass(mailer.getClass())).as("a JDK proxy").isTrue();
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> mailer.send("ann@example.com"));
            DeadLetter letter = store.list(10).get(0);
            this.target.down = false;

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.errorClass()).isNull();
            assertThat(result.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.DELETED);
            assertThat(this.target.sent).isOne();
        });
    }

    public interface Mailer {

        String send(String to) throws IOException;

    }

    public static class SmtpMailer implements Mailer {

        volatile boolean down = true;

        volatile int sent;

        @Override
        @Retryable("mail")
        public String send(String to) throws IOException {
            if (this.down) {
                throw new IOException("mail server down");
            }
            this.sent++;
            return "sent to " + to;
        }

    }

}
