package dev.resilience.redrive;

import java.io.IOException;
import java.time.Instant;
import java.util.List;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.DeadLetterRedriveAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionStatus;
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

/**
 * Review finding: a re-drive of a method that the bean's JDK proxy does not expose.
 */
class DeadLetterRedriveProxyMethodReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, DeadLetterRedriveAutoConfiguration.class))
        .withPropertyValues("spring.aop.proxy-target-class=false", "resilience.retry.instances.audit.max-attempts=1")
        .withBean("mailer", SmtpMailer.class, SmtpMailer::new, (definition) -> definition.setLazyInit(true));

    /**
     * The letter of an annotated method that is not on any interface of the bean's JDK
     * proxy (written before the application switched to JDK proxies, say, in a Redis
     * store; the bean is lazy, since the start fails for such a method of a bean it
     * creates): {@code AopUtils.selectInvocableMethod} throws
     * {@code IllegalStateException} ("not found in any interface(s) of the exposed proxy
     * type"), which the re-drive does not catch. {@code redrive} throws instead of
     * answering UNREADABLE, so the endpoint answers 500 and the re-drive's listeners (the
     * {@code resilience.deadletters.redriven} meter) never hear of it.
     */
    @Test
    void letterOfAMethodTheProxyDoesNotExposeIsUnreadable() {
        this.contextRunner.run((context) -> {
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            DeadLetter letter = new DeadLetter("019b76da-a800-7fba-aeb3-2f43d28f7bc2", "audit", "SmtpMailer#audit",
                    List.of("\"ann@example.com\""), "java.io.IOException", "audit log down", 1,
                    Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:00:00Z"),
                    ExecutionStatus.ERROR);
            store.write(letter);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.outcome()).isEqualTo(Outcome.UNREADABLE);
            assertThat(result.error()).contains("is a proxy that does not expose the method");
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(store.find(letter.id())).contains(letter);
        });
    }

    public interface Mailer {

        String send(String to) throws IOException;

    }

    public static class SmtpMailer implements Mailer {

        @Override
        public String send(String to) {
            return "sent to " + to;
        }

        @Retryable("audit")
        public String audit(String to) throws IOException {
            throw new IOException("audit log down");
        }

    }

}
