package dev.resilience.chaos;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.AttemptTimeoutException;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Faults injected into annotated methods through the proxy, inside the pipeline, on the
 * virtual clock: every policy reacts to them as to real ones.
 */
@SpringBootTest(classes = ChaosInjectionTests.TestApplication.class,
        properties = { "resilience.chaos.enabled=true", "resilience.retry.defaults.jitter=none",
                "resilience.retry.defaults.budget.enabled=false", "resilience.chaos.instances[charge].failure-rate=1.0",
                "resilience.chaos.instances[refund].failure-rate=0",
                "resilience.chaos.instances[gateway].failure-rate=1.0",
                "resilience.circuit-breaker.instances[gateway].minimum-calls=4",
                "resilience.circuit-breaker.instances[gateway].sliding-window-size=4",
                "resilience.chaos.instances[slow].latency=500ms", "resilience.chaos.instances[async].latency=200ms",
                "resilience.chaos.instances[async-slow].latency=500ms" })
@ExtendWith(OutputCaptureExtension.class)
class ChaosInjectionTests {

    @Autowired
    private Payments payments;

    @Autowired
    private VirtualTimeSource clock;

    @Autowired
    private ChaosInstances chaos;

    @Autowired
    private MeterRegistry meters;

    @Autowired
    private ResilienceRegistry registry;

    @BeforeEach
    void reset() {
        this.payments.reset();
    }

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void failureRateOneFailsEveryAttemptBeforeTheMethodAndRetriesSeeIt() {
        ExecutionResult<String> result = this.payments.charge("order-1");

        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(result.error()).isInstanceOf(ChaosException.class)
            .hasMessage("Chaos injected a failure into charge");
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(this.payments.runs()).isEqualTo(0);
        assertThat(this.meters.get("resilience.chaos.injected")
            .tags("name", "charge", "kind", "failure")
            .functionCounter()
            .count()).isEqualTo(3);
    }

    @Test
    void failureRateZeroLetsTheMethodRun() {
        assertThat(this.payments.refund("order-2")).isEqualTo("refunded order-2");
        assertThat(this.payments.runs()).isEqualTo(1);
        assertThat(this.chaos.find("refund").orElseThrow().injectedFailures()).isZero();
    }

    @Test
    void breakerRecordsInjectedFailuresAndOpens() {
        for (int call = 0; call < 4; call++) {
            assertThatExceptionOfType(ChaosException.class).isThrownBy(() -> this.payments.authorize("order"));
        }

        assertThat(this.registry.findCircuitBreaker("gateway").orElseThrow().state())
            .isEqualTo(CircuitBreakerState.OPEN);
        assertThatExceptionOfType(CallNotPermittedException.class).isThrownBy(() -> this.payments.authorize("order"));
        assertThat(this.chaos.find("gateway").orElseThrow().injectedFailures()).isEqualTo(4);
        assertThat(this.payments.runs()).isEqualTo(0);
    }

    @Test
    void latencyLongerThanTheAttemptTimeoutEndsTheAttemptAsATimeout() {
        ExecutionResult<String> result = this.payments.slow("order-3");

        assertThat(result.status()).isEqualTo(ExecutionStatus.TIMEOUT);
        assertThat(result.error()).isInstanceOf(AttemptTimeoutException.class);
        assertThat(this.payments.runs()).isEqualTo(0);
        assertThat(this.meters.get("resilience.chaos.injected")
            .tags("name", "slow", "kind", "latency")
            .functionCounter()
            .count()).isEqualTo(1);
    }

    @Test
    void asyncLatencyBlocksNoThreadAndTheVirtualClockCompletesTheCall() {
        CompletableFuture<String> receipt = this.payments.capture("order-4");

        assertThat(receipt).isNotDone();
        assertThat(this.payments.runs()).isEqualTo(0);

        this.clock.advance(Duration.ofMillis(199));
        assertThat(receipt).isNotDone();

        this.clock.advance(Duration.ofMillis(1));
        assertThat(receipt).isCompletedWithValue("captured order-4");
        assertThat(this.payments.runs()).isEqualTo(1);
    }

    @Test
    void asyncLatencyLongerThanTheAttemptTimeoutEndsAsATimeoutAndTheMethodNeverRuns() {
        CompletableFuture<String> receipt = this.payments.captureSlowly("order-6");

        this.clock.advance(Duration.ofMillis(100));

        assertThat(receipt).isCompletedExceptionally();
        assertThatExceptionOfType(ExecutionException.class).isThrownBy(receipt::get)
            .withCauseInstanceOf(AttemptTimeoutException.class);
        this.clock.advance(Duration.ofSeconds(1));
        assertThat(this.payments.runs()).isEqualTo(0);
    }

    @Test
    void changedSettingsApplyToTheNextCall() {
        ChaosInstance refund = this.chaos.find("refund").orElseThrow();
        refund.update(1.0, null);
        try {
            assertThatExceptionOfType(ChaosException.class).isThrownBy(() -> this.payments.refund("order-5"));
            assertThat(this.payments.runs()).isEqualTo(0);
        }
        finally {
            refund.update(0.0, null);
        }
    }

    @Test
    void methodWithoutConfiguredChaosIsAnInstanceWithoutFaults() {
        assertThat(this.chaos.find("Payments#plain"))
            .hasValueSatisfying((instance) -> assertThat(instance.settings()).isEqualTo(ChaosSettings.NONE));
        assertThat(this.payments.plain()).isEqualTo("plain");
    }

    @Test
    void startupWarnsThatChaosIsEnabledWithTheConfiguredInstancesAndOfNamesNoOperationHas(CapturedOutput output) {
        // the context is shared: start another to capture its WARN
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TestApplication.class)
            .properties("resilience.chaos.enabled=true", "resilience.chaos.instances[charge].failure-rate=0.25",
                    "resilience.chaos.instances[charge].latency=200ms", "resilience.chaos.instances[chrage].latency=1s",
                    "spring.main.banner-mode=off", "spring.main.web-application-type=none")
            .run()) {
            assertThat(output).contains("WARN")
                .contains("Chaos is enabled (resilience.chaos.enabled=true)")
                .contains("charge: failure-rate=0.25, latency=200ms, exception=dev.resilience.chaos.ChaosException")
                .contains("resilience.chaos.instances names no protected operation for [chrage]");
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        VirtualTimeSource resilienceTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        Payments payments() {
            return new Payments();
        }

    }

    static class Payments {

        private final AtomicInteger runs = new AtomicInteger();

        public int runs() {
            return this.runs.get();
        }

        public void reset() {
            this.runs.set(0);
        }

        @Retryable(value = "charge", maxAttempts = 3, delay = "10ms")
        public ExecutionResult<String> charge(String order) {
            this.runs.incrementAndGet();
            return ExecutionResult.success("charged " + order);
        }

        @Retryable(value = "refund", maxAttempts = 3, delay = "10ms")
        public String refund(String order) {
            this.runs.incrementAndGet();
            return "refunded " + order;
        }

        @CircuitGuarded("gateway")
        public String authorize(String order) {
            this.runs.incrementAndGet();
            return "authorized " + order;
        }

        @Retryable(value = "slow", maxAttempts = 1, attemptTimeout = "100ms")
        public ExecutionResult<String> slow(String order) {
            this.runs.incrementAndGet();
            return ExecutionResult.success("slow " + order);
        }

        @Retryable(value = "async", maxAttempts = 1)
        public CompletableFuture<String> capture(String order) {
            this.runs.incrementAndGet();
            return CompletableFuture.completedFuture("captured " + order);
        }

        @Retryable(value = "async-slow", maxAttempts = 1, attemptTimeout = "100ms")
        public CompletableFuture<String> captureSlowly(String order) {
            this.runs.incrementAndGet();
            return CompletableFuture.completedFuture("captured " + order);
        }

        @Retryable(maxAttempts = 1)
        public String plain() {
            return "plain";
        }

    }

}
