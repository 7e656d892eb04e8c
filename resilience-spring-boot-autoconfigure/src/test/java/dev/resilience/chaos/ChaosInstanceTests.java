package dev.resilience.chaos;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.resilience.core.CarriedContext;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * One operation's faults on the virtual clock, with the draws of its failures scripted.
 */
class ChaosInstanceTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final ResiliencePipeline pipeline = ResiliencePipeline.builder("pay").timeSource(this.clock).build();

    private final AtomicInteger runs = new AtomicInteger();

    @Test
    void attemptFailsWhenTheDrawIsBelowTheFailureRate() throws Exception {
        double[] draws = { 0.49, 0.5, 0.1, 0.9 };
        AtomicInteger next = new AtomicInteger();
        ChaosInstances chaos = new ChaosInstances(
                Map.of("pay", new ChaosSettings(0.5, Duration.ZERO, ChaosException.class)),
                () -> draws[next.getAndIncrement()]);
        ChaosInstance pay = chaos.instance("pay");

        int failures = 0;
        for (int i = 0; i < draws.length; i++) {
            try {
                ChaosInstance.around(pay, this.pipeline, this::run).call();
            }
            catch (ChaosException ex) {
                failures++;
            }
        }

        assertThat(failures).isEqualTo(2);
        assertThat(this.runs).hasValue(2);
        assertThat(pay.injectedFailures()).isEqualTo(2);
    }

    @Test
    void configuredExceptionIsThrownWithTheOperationsName() {
        ChaosInstance pay = new ChaosInstances(
                Map.of("pay", new ChaosSettings(1.0, Duration.ZERO, IllegalStateException.class)))
            .instance("pay");

        assertThatExceptionOfType(IllegalStateException.class)
            .isThrownBy(() -> ChaosInstance.around(pay, this.pipeline, this::run).call())
            .withMessage("Chaos injected a failure into pay");
        assertThat(this.runs).hasValue(0);
    }

    @Test
    void syncLatencyWaitsOnThePipelinesClock() throws Exception {
        ChaosInstance pay = new ChaosInstances(
                Map.of("pay", new ChaosSettings(0, Duration.ofMillis(300), ChaosException.class)))
            .instance("pay");

        assertThat(ChaosInstance.around(pay, this.pipeline, this::run).call()).isEqualTo("paid");
        assertThat(this.clock.sleeps()).containsExactly(Duration.ofMillis(300));
        assertThat(pay.injectedLatencies()).isEqualTo(1);
    }

    @Test
    void withoutChaosTheAttemptIsReturnedAsItIs() {
        Supplier<CompletionStage<String>> attempt = () -> CompletableFuture.completedFuture("paid");

        assertThat(ChaosInstance.aroundStage(null, this.pipeline, CarriedContext.NONE, attempt)).isSameAs(attempt);
    }

    @Test
    void cancellingADelayedAsyncAttemptCancelsItsTimerAndTheMethodNeverRuns() {
        ChaosInstance pay = new ChaosInstances(
                Map.of("pay", new ChaosSettings(0, Duration.ofMillis(300), ChaosException.class)))
            .instance("pay");

        CompletableFuture<String> stage = ChaosInstance
            .aroundStage(pay, this.pipeline, CarriedContext.NONE, this::runAsync)
            .get()
            .toCompletableFuture();
        assertThat(this.clock.pendingTasks()).isEqualTo(1);
        stage.cancel(false);
        this.clock.advance(Duration.ofSeconds(1));

        assertThat(this.clock.pendingTasks()).isZero();
        assertThat(this.runs).hasValue(0);
    }

    @Test
    void changeKeepsTheSettingsLeftOutAndRefusesOutOfRangeValues() {
        ChaosInstance pay = new ChaosInstances(
                Map.of("pay", new ChaosSettings(0.2, Duration.ofMillis(300), ChaosException.class)))
            .instance("pay");

        assertThat(pay.update(null, Duration.ofMillis(50)))
            .isEqualTo(new ChaosSettings(0.2, Duration.ofMillis(50), ChaosException.class));
        assertThatIllegalArgumentException().isThrownBy(() -> pay.update(2.0, null));
        assertThatIllegalArgumentException().isThrownBy(() -> pay.update(null, Duration.ofMillis(-1)));
        assertThat(pay.settings()).isEqualTo(new ChaosSettings(0.2, Duration.ofMillis(50), ChaosException.class));
    }

    @Test
    void onlyCompiledOperationsHaveAnInstanceWithTheirConfiguredSettings() {
        ChaosSettings configured = new ChaosSettings(0.3, Duration.ZERO, ChaosException.class);
        ChaosInstances chaos = new ChaosInstances(Map.of("pay", configured, "pya", ChaosSettings.NONE));

        assertThat(chaos.find("pay")).isEmpty();
        chaos.instance("pay");
        chaos.instance("refund");

        assertThat(chaos.instances()).containsOnlyKeys("pay", "refund");
        assertThat(chaos.find("pay").orElseThrow().settings()).isEqualTo(configured);
        assertThat(chaos.find("refund").orElseThrow().settings()).isEqualTo(ChaosSettings.NONE);
        assertThat(chaos.unmatchedConfiguredNames()).containsExactly("pya");
    }

    private String run() {
        this.runs.incrementAndGet();
        return "paid";
    }

    private CompletionStage<String> runAsync() {
        return CompletableFuture.completedFuture(run());
    }

}
