package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.time.VirtualTimeSource;
import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A method returning {@code Mono} with an AspectJ advice of the application inside the
 * resilience advice: each attempt, made when the returned {@code Mono} is subscribed to,
 * after the proxy has returned, runs the advice with its join point as a call of the
 * proxy would.
 */
@SpringBootTest(classes = MonoCallsAspectTests.TestApplication.class,
        properties = { "resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false",
                "resilience.async.executor=callerRunsExecutor" })
class MonoCallsAspectTests {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @Autowired
    private AdvisedQuotes quotes;

    @Autowired
    private AuditAspect audit;

    @Autowired
    private VirtualTimeSource clock;

    @BeforeEach
    void reset() {
        this.quotes.reset();
        this.audit.reset();
    }

    @Test
    void everyAttemptSubscribedAfterTheProxyReturnedRunsTheApplicationsAdviceWithItsJoinPoint() {
        Mono<String> quote = this.quotes.quote("ETH");
        assertThat(this.audit.audited()).as("nothing runs at assembly").isEmpty();

        StepVerifier.create(quote)
            .then(() -> this.clock.advance(Duration.ofMillis(100)))
            .expectNext("ETH 3100")
            .expectComplete()
            .verify(BOUND);

        assertThat(this.quotes.attempts()).isEqualTo(2);
        assertThat(this.audit.audited()).containsExactly("quote(ETH)", "quote(ETH)");
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
        AuditAspect auditAspect() {
            return new AuditAspect();
        }

        @Bean
        AdvisedQuotes advisedQuotes() {
            return new AdvisedQuotes();
        }

    }

    /**
     * Records each call of an {@link AdvisedQuotes} method it advises, by its join point,
     * as an application's audit aspect would; it orders after the resilience advice.
     */
    @Aspect
    static class AuditAspect {

        private final List<String> audited = new CopyOnWriteArrayList<>();

        @Before("execution(* dev.resilience.aop.MonoCallsAspectTests.AdvisedQuotes.quote(..))")
        public void audit(JoinPoint joinPoint) {
            this.audited.add(joinPoint.getSignature().getName() + "(" + joinPoint.getArgs()[0] + ")");
        }

        List<String> audited() {
            return this.audited;
        }

        void reset() {
            this.audited.clear();
        }

    }

    /**
     * A method returning a {@code Mono} that fails its first subscription.
     */
    static class AdvisedQuotes {

        private final AtomicInteger attempts = new AtomicInteger();

        @Retryable(value = "advised-quote", maxAttempts = 2, delay = "100ms", multiplier = 1)
        public Mono<String> quote(String symbol) {
            return Mono.defer(() -> (this.attempts.incrementAndGet() == 1) ? Mono.error(new IOException("oracle down"))
                    : Mono.just(symbol + " 3100"));
        }

        int attempts() {
            return this.attempts.get();
        }

        void reset() {
            this.attempts.set(0);
        }

    }

}
