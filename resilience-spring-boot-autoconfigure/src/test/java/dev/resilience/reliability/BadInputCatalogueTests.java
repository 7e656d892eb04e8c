package dev.resilience.reliability;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResiliencePolicyFailureAnalyzer;
import dev.resilience.core.CallInterruptedException;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A catalogue of bad inputs, one row per test: each must end in a clear error, at the
 * start when it is configuration, at the call when it is data.
 */
@SpringBootTest(classes = BadInputCatalogueTests.TestApplication.class,
        properties = "resilience.retry.defaults.jitter=none")
class BadInputCatalogueTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class));

    @Autowired
    private CatalogueService service;

    @BeforeEach
    void reset() {
        this.service.reset();
    }

    // Idempotency keys

    @Test
    void emptyKeyIsRefusedWithoutRunningTheMethod() {
        assertThatExceptionOfType(IdempotencyKeyException.class).isThrownBy(() -> this.service.pay("", 100))
            .withMessage("Idempotency key is empty");
        assertThat(this.service.runs()).isZero();
    }

    @Test
    void blankKeyIsRefusedWithoutRunningTheMethod() {
        assertThatExceptionOfType(IdempotencyKeyException.class).isThrownBy(() -> this.service.pay(" \u2003 ", 100))
            .withMessage("Idempotency key is blank");
        assertThat(this.service.runs()).isZero();
    }

    @Test
    void keyOf256CharactersIsRefusedNamingItsLengthAndTheLimit() {
        assertThatExceptionOfType(IdempotencyKeyException.class)
            .isThrownBy(() -> this.service.pay("k".repeat(256), 100))
            .withMessage("Idempotency key '" + "k".repeat(40) + "...' is 256 characters long; at most 255 are allowed");
        assertThat(this.service.runs()).isZero();
    }

    @Test
    void keyOf255CharactersIsAcceptedAndReplayed() {
        String key = "k".repeat(255);

        assertThat(this.service.pay(key, 100)).isEqualTo("paid:100");
        assertThat(this.service.pay(key, 100)).isEqualTo("paid:100");
        assertThat(this.service.runs()).isEqualTo(1);
    }

    @Test
    void nonAsciiKeyIsAcceptedAndReplayed() {
        String key = "commande-été-東京-Ω-\uD83D\uDE00";

        assertThat(this.service.pay(key, 100)).isEqualTo("paid:100");
        assertThat(this.service.pay(key, 100)).isEqualTo("paid:100");
        assertThat(this.service.runs()).isEqualTo(1);
        assertThat(this.service.keysSeen()).containsExactly(key);
    }

    @Test
    void keyReusedWithAnotherArgumentIsAMismatchAndDoesNotRun() {
        this.service.pay("order-7", 100);

        assertThatExceptionOfType(IdempotencyKeyMismatchException.class)
            .isThrownBy(() -> this.service.pay("order-7", 999))
            .withMessageContaining("'order-7'")
            .withMessageContaining("another fingerprint");
        assertThat(this.service.runs()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "T(java.lang.Runtime).getRuntime()", "#{1+1}", "#root", "#this", "${user.home}",
            "T(java.lang.System).exit(1)" })
    void keyThatLooksLikeSpelIsPlainDataAndNeverEvaluated(String key) {
        assertThat(this.service.pay(key, 100)).isEqualTo("paid:100");
        assertThat(this.service.pay(key, 100)).isEqualTo("paid:100");

        assertThat(this.service.runs()).isEqualTo(1);
        assertThat(this.service.keysSeen()).containsExactly(key);
    }

    @Test
    void keysThatWouldEvaluateToTheSameValueAreStillDistinct() {
        this.service.note("#{1+1}");
        this.service.note("2");
        this.service.note("#root");
        this.service.note("#{1+1}");

        assertThat(this.service.runs()).isEqualTo(3);
    }

    // Malformed and out-of-range configuration

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', textBlock = """
            retry.defaults.delay                            | soon  | soon
            retry.defaults.max-attempts                     | zero  | zero
            retry.defaults.jitter                           | wild  | wild
            circuit-breaker.defaults.sliding-window-type    | ring  | ring
            circuit-breaker.defaults.failure-rate-threshold | high  | high
            idempotency.ttl                                 | 1day  | 1day
            """)
    void malformedValueFailsTheStartNamingThePropertyAndTheValue(String property, String value, String quoted) {
        this.contextRunner.withPropertyValues("resilience." + property + "=" + value)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("Property: resilience." + property)
                .contains("Value: \"" + quoted + "\""));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', textBlock = """
            retry.defaults.max-attempts                     | 0    | must be >= 1 (all attempts, the first included)
            circuit-breaker.defaults.failure-rate-threshold | 150  | must be in (0, 100]
            retry.defaults.multiplier                       | 0.5  | must be a finite number >= 1.0
            """)
    void outOfRangeValueFailsTheStartNamingThePropertyAndTheRange(String property, String value, String reason) {
        this.contextRunner.withPropertyValues("resilience." + property + "=" + value)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("Property: resilience." + property)
                .contains("Reason: " + reason));
    }

    @Test
    void annotationNamingAMissingFallbackFailsTheStart() {
        this.contextRunner.withBean("broken", MissingFallback.class)
            .run((context) -> assertThat(analyze(context.getStartupFailure()).getDescription()).contains("broken",
                    "MissingFallback#call", "no method named 'nowhere'"));
    }

    @Test
    void annotationNamingAnIllTypedFallbackFailsTheStart() {
        this.contextRunner.withBean("broken", IllTypedFallback.class)
            .run((context) -> assertThat(analyze(context.getStartupFailure()).getDescription())
                .contains("IllTypedFallback#call", "not assignable to"));
    }

    // Fallbacks that throw

    @Test
    void fallbackThatThrowsHandsOverToTheNextOne() throws Exception {
        assertThat(this.service.withFallbacks(true)).isEqualTo("third");
        assertThat(this.service.fallbacksTried()).containsExactly("first", "second", "third");
    }

    @Test
    void whenEveryFallbackThrowsThePrimaryErrorIsThrownAsItWas() {
        assertThatExceptionOfType(IOException.class).isThrownBy(() -> this.service.withFallbacks(false))
            .withMessage("primary")
            .satisfies((ex) -> assertThat(ex.getSuppressed()).isEmpty());
        assertThat(this.service.fallbacksTried()).containsExactly("first", "second", "third");
    }

    // Null results

    @Test
    void nullIsAValueAndIsNotRetried() {
        assertThat(this.service.nothing()).isNull();
        assertThat(this.service.runs()).isEqualTo(1);
    }

    @Test
    void nullResultOfAnIdempotentMethodIsReplayedAsNull() {
        assertThat(this.service.nothingOnce("null-1")).isNull();
        assertThat(this.service.nothingOnce("null-1")).isNull();
        assertThat(this.service.runs()).isEqualTo(1);
    }

    // Checked exceptions

    @Test
    void checkedExceptionIsRetriedAndThrownAsIs() {
        assertThatExceptionOfType(LedgerException.class).isThrownBy(() -> this.service.ledger())
            .withMessage("ledger 3")
            .satisfies((ex) -> assertThat(ex.getSuppressed()).isEmpty());
        assertThat(this.service.runs()).isEqualTo(3);
    }

    // Interruption

    @Test
    void interruptedThreadStopsRetryingAndKeepsItsInterruptFlag() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> flagAfter = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                this.service.interruptedDuringBackoff();
            }
            catch (Throwable ex) {
                thrown.set(ex);
            }
            flagAfter.set(Thread.currentThread().isInterrupted());
        });
        caller.start();
        caller.join(Duration.ofSeconds(10).toMillis());

        assertThat(caller.isAlive()).isFalse();
        assertThat(flagAfter.get()).isTrue();
        assertThat(this.service.runs()).isEqualTo(1);
        assertThat(thrown.get()).isInstanceOf(CallInterruptedException.class)
            .hasCauseInstanceOf(InterruptedException.class)
            .satisfies(
                    (ex) -> assertThat(ex.getSuppressed()).extracting(Throwable::getMessage).containsExactly("down"));
    }

    private static FailureAnalysis analyze(Throwable failure) {
        assertThat(failure).isNotNull();
        FailureAnalysis analysis = new ResiliencePolicyFailureAnalyzer().analyze(failure);
        assertThat(analysis).as("failure analysis of %s", failure).isNotNull();
        return analysis;
    }

    private static String describe(Throwable failure) {
        assertThat(failure).isNotNull();
        return FailureAnalyses.describe(failure);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean
        CatalogueService catalogueService() {
            return new CatalogueService();
        }

    }

    static class LedgerException extends Exception {

        LedgerException(String message) {
            super(message);
        }

    }

    /**
     * Small annotated methods, each the subject of some rows of the catalogue.
     */
    static class CatalogueService {

        private final AtomicInteger runs = new AtomicInteger();

        private final List<String> keysSeen = Collections.synchronizedList(new ArrayList<>());

        private final List<String> fallbacksTried = Collections.synchronizedList(new ArrayList<>());

        void reset() {
            this.runs.set(0);
            this.keysSeen.clear();
            this.fallbacksTried.clear();
        }

        int runs() {
            return this.runs.get();
        }

        List<String> keysSeen() {
            return List.copyOf(this.keysSeen);
        }

        List<String> fallbacksTried() {
            return List.copyOf(this.fallbacksTried);
        }

        @Idempotent(key = "#key")
        public String pay(String key, long amount) {
            this.runs.incrementAndGet();
            this.keysSeen.add(key);
            return "paid:" + amount;
        }

        @Idempotent(key = "#key", name = "notes")
        public String note(String key) {
            this.runs.incrementAndGet();
            return key;
        }

        @Fallback({ "first", "second", "third" })
        @Retryable(value = "with-fallbacks", maxAttempts = 1)
        public String withFallbacks(boolean lastSucceeds) throws IOException {
            throw new IOException("primary");
        }

        String first(boolean lastSucceeds) throws IOException {
            this.fallbacksTried.add("first");
            throw new IOException("first down");
        }

        String second(boolean lastSucceeds, Exception error) {
            this.fallbacksTried.add("second");
            throw new IllegalStateException("second down");
        }

        String third(boolean lastSucceeds) throws LedgerException {
            this.fallbacksTried.add("third");
            if (lastSucceeds) {
                return "third";
            }
            throw new LedgerException("third down");
        }

        @Retryable(value = "nothing", maxAttempts = 3, delay = "10ms")
        public String nothing() {
            this.runs.incrementAndGet();
            return null;
        }

        @Idempotent(key = "#key")
        @Retryable(value = "nothing-once", maxAttempts = 3, delay = "10ms")
        public String nothingOnce(String key) {
            this.runs.incrementAndGet();
            return null;
        }

        @Retryable(value = "ledger", maxAttempts = 3, delay = "10ms")
        public String ledger() throws LedgerException {
            throw new LedgerException("ledger " + this.runs.incrementAndGet());
        }

        @Retryable(value = "interrupted", maxAttempts = 5, delay = "1s")
        public String interruptedDuringBackoff() throws IOException {
            this.runs.incrementAndGet();
            Thread.currentThread().interrupt();
            throw new IOException("down");
        }

    }

    static class MissingFallback {

        @Fallback("nowhere")
        public String call(String id) {
            return id;
        }

    }

    static class IllTypedFallback {

        @Fallback("later")
        public String call(String id) {
            return id;
        }

        Integer later(String id) {
            return 0;
        }

    }

}
