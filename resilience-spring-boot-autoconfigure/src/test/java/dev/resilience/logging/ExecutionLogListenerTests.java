package dev.resilience.logging;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceLogsAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The lines logged for retries, fallbacks and calls that end without success, through the
 * proxy of an annotated bean, with Spring Boot's logging system set up from the context's
 * {@code logging.*} properties as an application's is.
 */
@ExtendWith(OutputCaptureExtension.class)
class ExecutionLogListenerTests {

    private static final List<String> CATEGORIES = List.of(ExecutionLogListener.RETRY, ExecutionLogListener.FALLBACK,
            ExecutionLogListener.CALL);

    private static final Pattern LINE = Pattern.compile(
            ".*?\\b(TRACE|DEBUG|INFO|WARN|ERROR)\\b.*?\\b(dev\\.resilience\\.(?:retry|fallback|call))\\s+[:-] (.*)");

    private static final String SECRET_ARGUMENT = "acct-4242-secret";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class,
                ResilienceLogsAutoConfiguration.class))
        .withInitializer(bootLogging())
        .withBean(VirtualTimeSource.class)
        .withBean(Quotes.class);

    @Test
    void callRetriedTwiceThenSucceedingLogsARetryLineForEachFailedAttempt(CapturedOutput output) {
        this.contextRunner.run((context) -> {
            assertThat(context.getBean(Quotes.class).flaky(SECRET_ARGUMENT)).isEqualTo("quote");

            assertThat(lines(output)).containsExactly(
                    "INFO dev.resilience.retry Retrying 'flaky-quote': attempt 1 failed with "
                            + "java.lang.IllegalStateException: quote service down; next attempt in 100ms",
                    "INFO dev.resilience.retry Retrying 'flaky-quote': attempt 2 failed with "
                            + "java.lang.IllegalStateException: quote service down; next attempt in 200ms");
            assertThat(output.getOut()).doesNotContain(SECRET_ARGUMENT);
        });
    }

    @Test
    void callThatFallsBackLogsTheFallbackAtWarn(CapturedOutput output) {
        this.contextRunner.run((context) -> {
            assertThat(context.getBean(Quotes.class).withFallback(SECRET_ARGUMENT)).isEqualTo("cached quote");

            assertThat(lines(output))
                .containsExactly("WARN dev.resilience.fallback Fallback 'cachedQuote' of 'fallback-quote' succeeded");
            assertThat(output.getOut()).doesNotContain(SECRET_ARGUMENT);
        });
    }

    @Test
    void callThatEndsInErrorLogsItsRetriesAndItsEndAtWarn(CapturedOutput output) {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);

            assertThatIllegalStateException().isThrownBy(() -> quotes.failing(SECRET_ARGUMENT));

            assertThat(lines(output)).containsExactly(
                    "INFO dev.resilience.retry Retrying 'failing-quote': attempt 1 failed with "
                            + "java.lang.IllegalStateException: quote service down; next attempt in 100ms",
                    "WARN dev.resilience.call Call 'failing-quote' ended ERROR after 2 attempts: "
                            + "java.lang.IllegalStateException: quote service down");
            assertThat(output.getOut()).doesNotContain(SECRET_ARGUMENT);
        });
    }

    @Test
    void failedFallbackIsLoggedBeforeTheCallsEnd(CapturedOutput output) {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);

            assertThatIllegalStateException().isThrownBy(() -> quotes.withFailingFallback(SECRET_ARGUMENT));

            assertThat(lines(output)).containsExactly(
                    "WARN dev.resilience.fallback Fallback 'brokenQuote' of 'broken-fallback-quote' failed",
                    "WARN dev.resilience.call Call 'broken-fallback-quote' ended ERROR after 1 attempt: "
                            + "java.lang.IllegalStateException: quote service down");
        });
    }

    @Test
    void warnLinesOfOneNameAreThrottledAndCountWhatWasHeldBack(CapturedOutput output) {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            VirtualTimeSource time = context.getBean(VirtualTimeSource.class);
            for (int i = 0; i < 3; i++) {
                quotes.withFallback(SECRET_ARGUMENT);
                assertThatIllegalStateException().isThrownBy(() -> quotes.withFailingFallback(SECRET_ARGUMENT));
            }
            time.advance(ExecutionLogListener.DEFAULT_INTERVAL);
            quotes.withFallback(SECRET_ARGUMENT);
            assertThatIllegalStateException().isThrownBy(() -> quotes.withFailingFallback(SECRET_ARGUMENT));

            assertThat(lines(output)).containsExactly(
                    "WARN dev.resilience.fallback Fallback 'cachedQuote' of 'fallback-quote' succeeded",
                    "WARN dev.resilience.fallback Fallback 'brokenQuote' of 'broken-fallback-quote' failed",
                    "WARN dev.resilience.call Call 'broken-fallback-quote' ended ERROR after 1 attempt: "
                            + "java.lang.IllegalStateException: quote service down",
                    "WARN dev.resilience.fallback Fallback 'cachedQuote' of 'fallback-quote' succeeded"
                            + " (and 2 more since the last line, held back)",
                    "WARN dev.resilience.fallback Fallback 'brokenQuote' of 'broken-fallback-quote' failed"
                            + " (and 2 more since the last line, held back)",
                    "WARN dev.resilience.call Call 'broken-fallback-quote' ended ERROR after 1 attempt: "
                            + "java.lang.IllegalStateException: quote service down"
                            + " (and 2 more since the last line, held back)");
        });
    }

    @Test
    void intervalOfZeroLogsEveryLine(CapturedOutput output) {
        this.contextRunner.withPropertyValues("resilience.logs.interval=0").run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            quotes.withFallback(SECRET_ARGUMENT);
            quotes.withFallback(SECRET_ARGUMENT);

            assertThat(lines(output)).containsExactly(
                    "WARN dev.resilience.fallback Fallback 'cachedQuote' of 'fallback-quote' succeeded",
                    "WARN dev.resilience.fallback Fallback 'cachedQuote' of 'fallback-quote' succeeded");
        });
    }

    @Test
    void plainSuccessLogsNothingAtInfo(CapturedOutput output) {
        this.contextRunner.run((context) -> {
            assertThat(context.getBean(Quotes.class).plain(SECRET_ARGUMENT)).isEqualTo("quote");

            assertThat(lines(output)).isEmpty();
        });
    }

    @Test
    void plainSuccessIsLoggedAtDebugWhenTheCallCategoryAsksForIt(CapturedOutput output) {
        this.contextRunner.withPropertyValues("logging.level.dev.resilience.call=debug").run((context) -> {
            assertThat(context.getBean(Quotes.class).plain(SECRET_ARGUMENT)).isEqualTo("quote");

            assertThat(lines(output))
                .containsExactly("DEBUG dev.resilience.call Call 'plain-quote' ended SUCCESS after 1 attempt");
        });
    }

    @Test
    void eachCategoryHonoursItsLoggingLevel(CapturedOutput output) {
        this.contextRunner
            .withPropertyValues("logging.level.dev.resilience.retry=warn",
                    "logging.level.dev.resilience.fallback=error")
            .run((context) -> {
                Quotes quotes = context.getBean(Quotes.class);
                quotes.flaky(SECRET_ARGUMENT);
                quotes.withFallback(SECRET_ARGUMENT);
                assertThatIllegalStateException().isThrownBy(() -> quotes.failing(SECRET_ARGUMENT));

                assertThat(lines(output)).containsExactly("WARN dev.resilience.call Call 'failing-quote' ended ERROR "
                        + "after 2 attempts: java.lang.IllegalStateException: quote service down");
            });
    }

    @Test
    void linesAreNotLoggedWhenTurnedOff(CapturedOutput output) {
        this.contextRunner.withPropertyValues("resilience.logs.enabled=false").run((context) -> {
            assertThat(context).doesNotHaveBean(ExecutionLogListener.class);
            Quotes quotes = context.getBean(Quotes.class);
            quotes.flaky(SECRET_ARGUMENT);
            assertThatIllegalStateException().isThrownBy(() -> quotes.failing(SECRET_ARGUMENT));

            assertThat(lines(output)).isEmpty();
        });
    }

    @BeforeEach
    @AfterEach
    void resetLevels() {
        LoggingSystem system = LoggingSystem.get(getClass().getClassLoader());
        for (String category : CATEGORIES) {
            system.setLogLevel(category, null);
        }
    }

    /**
     * Returns the lines of the three categories, each as its level, its category and its
     * message, whatever the console's pattern.
     */
    private static List<String> lines(CapturedOutput output) {
        return output.getOut()
            .lines()
            .map(LINE::matcher)
            .filter(Matcher::matches)
            .map((line) -> line.group(1) + " " + line.group(2) + " " + line.group(3))
            .toList();
    }

    /**
     * Sets up Spring Boot's logging system from the context's environment, as
     * {@link SpringApplication} does, so that {@code logging.level.*} applies.
     */
    private static ApplicationContextInitializer<ConfigurableApplicationContext> bootLogging() {
        return (context) -> {
            LoggingApplicationListener listener = new LoggingApplicationListener();
            SpringApplication application = new SpringApplication();
            DefaultBootstrapContext bootstrap = new DefaultBootstrapContext();
            listener.onApplicationEvent(new ApplicationStartingEvent(bootstrap, application, new String[0]));
            listener.onApplicationEvent(new ApplicationEnvironmentPreparedEvent(bootstrap, application, new String[0],
                    context.getEnvironment()));
        };
    }

    static class Quotes {

        private final AtomicInteger flakyCalls = new AtomicInteger();

        @Retryable(value = "flaky-quote", maxAttempts = 3, delay = "100ms", multiplier = 2, jitter = "none")
        public String flaky(String account) {
            if (this.flakyCalls.incrementAndGet() % 3 != 0) {
                throw new IllegalStateException("quote service down");
            }
            return "quote";
        }

        @Retryable(value = "failing-quote", maxAttempts = 2, delay = "100ms", jitter = "none")
        public String failing(String account) {
            throw new IllegalStateException("quote service down");
        }

        @Retryable(value = "fallback-quote", maxAttempts = 1)
        @Fallback("cachedQuote")
        public String withFallback(String account) {
            throw new IllegalStateException("quote service down");
        }

        @Retryable(value = "broken-fallback-quote", maxAttempts = 1)
        @Fallback("brokenQuote")
        public String withFailingFallback(String account) {
            throw new IllegalStateException("quote service down");
        }

        @Retryable("plain-quote")
        public String plain(String account) {
            return "quote";
        }

        private String cachedQuote(String account) {
            return "cached quote";
        }

        private String brokenQuote(String account) {
            throw new IllegalStateException("cache empty");
        }

    }

}
