package dev.resilience.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import dev.resilience.annotation.Hedged;
import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceMetricsAutoConfiguration;
import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @Hedged} through the proxy, on a virtual clock that only the tests move: the
 * hedge's start, its value, the settings' precedence, their validation at startup and the
 * {@code resilience.hedges} meters.
 */
class HedgedAnnotationTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceMetricsAutoConfiguration.class))
        .withBean(VirtualTimeSource.class, () -> this.clock)
        .withBean(SimpleMeterRegistry.class)
        .withBean("callerRunsExecutor", Executor.class, () -> Runnable::run)
        .withPropertyValues("resilience.async.executor=callerRunsExecutor");

    @Test
    void aFirstTryThatNeverAnswersIsOutrunByTheHedgeStartedAfterTheDelay() {
        this.contextRunner.withBean(Quotes.class).run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);

            CompletableFuture<String> call = quotes.quote("EUR");
            this.clock.advance(Duration.ofMillis(49));
            assertThat(quotes.tries()).as("no hedge before the delay").hasSize(1);
            this.clock.advance(Duration.ofMillis(1));
            assertThat(quotes.tries()).as("one hedge after it").hasSize(2);
            this.clock.advance(Duration.ofSeconds(1));
            assertThat(quotes.tries()).as("maxHedges = 1").hasSize(2);
            quotes.tries().get(1).complete("hedged EUR");

            assertThat(call.join()).isEqualTo("hedged EUR");
            assertThat(quotes.tries().get(0)).as("the first try is stopped").isCancelled();
            assertThat(hedges(meters, "quotes", "won")).isEqualTo(1);
            assertThat(hedges(meters, "quotes", "lost")).as("the stopped first try is no hedge").isZero();
        });
    }

    @Test
    void aHedgeOutrunByTheFirstTryCountsAsLost() {
        this.contextRunner.withBean(Quotes.class).run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);

            CompletableFuture<String> call = quotes.quote("USD");
            this.clock.advance(Duration.ofMillis(50));
            quotes.tries().get(0).complete("first USD");

            assertThat(call.join()).isEqualTo("first USD");
            assertThat(quotes.tries().get(1)).isCancelled();
            assertThat(hedges(meters, "quotes", "won")).isZero();
            assertThat(hedges(meters, "quotes", "lost")).isEqualTo(1);
        });
    }

    @Test
    void aFirstTryAnsweringWithinTheDelayStartsNoHedge() {
        this.contextRunner.withBean(Quotes.class).run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);

            CompletableFuture<String> call = quotes.quote("GBP");
            this.clock.advance(Duration.ofMillis(49));
            quotes.tries().get(0).complete("first GBP");
            this.clock.advance(Duration.ofSeconds(1));

            assertThat(call.join()).isEqualTo("first GBP");
            assertThat(quotes.tries()).hasSize(1);
            assertThat(hedges(meters, "quotes", "won")).isZero();
            assertThat(hedges(meters, "quotes", "lost")).isZero();
        });
    }

    @Test
    void anIdempotentKeyCoversTheWholeHedgedCallAndReplaysTheWinnersValue() {
        this.contextRunner.withBean(Quotes.class).run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);

            CompletableFuture<String> call = quotes.keyedQuote("NOK");
            this.clock.advance(Duration.ofMillis(50));
            quotes.tries().get(1).complete("hedged NOK");
            assertThat(call.join()).isEqualTo("hedged NOK");

            assertThat(quotes.keyedQuote("NOK").join()).isEqualTo("hedged NOK");
            assertThat(quotes.tries()).as("the replay runs no try").hasSize(2);
            assertThat(hedges(meters, "keyed", "won")).isEqualTo(1);
            assertThat(hedges(meters, "keyed", "lost")).isZero();
        });
    }

    @Test
    void yamlInstanceOverridesTheAnnotation() {
        this.contextRunner.withBean(Quotes.class)
            .withPropertyValues("resilience.hedging.instances.quotes.delay=20ms",
                    "resilience.hedging.instances.quotes.max-hedges=2")
            .run((context) -> {
                Quotes quotes = context.getBean(Quotes.class);
                assertThat(policy(context.getBean(ResilienceRegistry.class), "quotes"))
                    .extracting(HedgingPolicy::delay, HedgingPolicy::maxHedges)
                    .containsExactly(Duration.ofMillis(20), 2);

                quotes.quote("CHF");
                this.clock.advance(Duration.ofMillis(20));
                assertThat(quotes.tries()).hasSize(2);
                this.clock.advance(Duration.ofMillis(20));
                assertThat(quotes.tries()).hasSize(3);
                this.clock.advance(Duration.ofSeconds(1));
                assertThat(quotes.tries()).hasSize(3);
            });
    }

    @Test
    void yamlDefaultsApplyToWhatTheAnnotationLeavesUnset() {
        this.contextRunner.withBean(Quotes.class)
            .withPropertyValues("resilience.hedging.defaults.delay=30ms", "resilience.hedging.defaults.max-hedges=3")
            .run((context) -> {
                ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
                assertThat(policy(registry, "plain")).extracting(HedgingPolicy::delay, HedgingPolicy::maxHedges)
                    .containsExactly(Duration.ofMillis(30), 3);
                assertThat(policy(registry, "quotes")).as("the annotation over the defaults")
                    .extracting(HedgingPolicy::delay, HedgingPolicy::maxHedges)
                    .containsExactly(Duration.ofMillis(50), 3);
                assertThat(policy(registry, "Quotes#rates")).as("a class-level annotation, by the method's name")
                    .extracting(HedgingPolicy::delay, HedgingPolicy::maxHedges)
                    .containsExactly(Duration.ofMillis(30), 2);
            });
    }

    @Test
    void withoutAnySettingTheBuiltInDefaultsApply() {
        this.contextRunner.withBean(Quotes.class)
            .run((context) -> assertThat(policy(context.getBean(ResilienceRegistry.class), "plain"))
                .extracting(HedgingPolicy::delay, HedgingPolicy::maxHedges)
                .containsExactly(HedgingPolicy.DEFAULT_DELAY, HedgingPolicy.DEFAULT_MAX_HEDGES));
    }

    @Test
    void metersOfAnnotatedAndConfiguredInstancesExistFromTheStartAtZero() {
        this.contextRunner.withBean(Quotes.class)
            .withPropertyValues("resilience.hedging.instances.configured-only.delay=10ms")
            .run((context) -> {
                MeterRegistry meters = context.getBean(MeterRegistry.class);
                for (String name : new String[] { "quotes", "plain", "Quotes#rates", "configured-only" }) {
                    assertThat(hedges(meters, name, "won")).as(name).isZero();
                    assertThat(hedges(meters, name, "lost")).as(name).isZero();
                }
            });
    }

    @Test
    void outOfRangeYamlFailsTheStartNamingThePropertyAndTheRange() {
        this.contextRunner.withBean(Quotes.class)
            .withPropertyValues("resilience.hedging.instances.quotes.max-hedges=11")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.hedging.instances[quotes].max-hedges")
                .contains("Reason: must be between 1 and 10"));
        this.contextRunner.withPropertyValues("resilience.hedging.defaults.delay=0ms")
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Property: resilience.hedging.defaults.delay")
                .contains("Reason: must be positive and at most 1h"));
    }

    @Test
    void badAnnotationValueFailsTheStartNamingTheAttributeAndTheFix() {
        this.contextRunner.withBean("badQuotes", BadQuotes.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("bean 'badQuotes', method BadQuotes#quote")
                .contains("@Hedged(maxHedges)")
                .contains("maxHedges must be between 1 and 10, was 11")
                .contains("Use from 1 to 10 hedges per attempt"));
        this.contextRunner.withBean("slowQuotes", SlowQuotes.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("bean 'slowQuotes', method SlowQuotes#quote")
                .contains("@Hedged(delay)")
                .contains("Use a positive delay of at most 1h"));
    }

    @Test
    void twoAnnotationsThatConfigureOneHedgingInstanceOtherwiseFailTheStart() {
        this.contextRunner.withBean(Quotes.class)
            .withBean("otherQuotes", OtherQuotes.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Setting: @Hedged(delay)")
                .contains("hedging instance 'quotes' is also configured by bean '")
                .contains("resilience.hedging.instances.quotes.delay"));
    }

    private static HedgingPolicy policy(ResilienceRegistry registry, String name) {
        return registry.hedging().get(name).policy();
    }

    private static double hedges(MeterRegistry meters, String name, String outcome) {
        return meters.get("resilience.hedges").tag("name", name).tag("outcome", outcome).functionCounter().count();
    }

    @Hedged(maxHedges = 2)
    static class Quotes {

        private final List<CompletableFuture<String>> tries = Collections.synchronizedList(new ArrayList<>());

        List<CompletableFuture<String>> tries() {
            return this.tries;
        }

        @Hedged(name = "quotes", delay = "50ms")
        public CompletableFuture<String> quote(String currency) {
            CompletableFuture<String> attempt = new CompletableFuture<>();
            this.tries.add(attempt);
            return attempt;
        }

        @Idempotent(key = "#currency")
        @Hedged(name = "keyed", delay = "50ms")
        public CompletableFuture<String> keyedQuote(String currency) {
            return quote(currency);
        }

        @Hedged("plain")
        public CompletableFuture<String> plain() {
            return CompletableFuture.completedFuture("plain");
        }

        public CompletableFuture<String> rates() {
            return CompletableFuture.completedFuture("rates");
        }

    }

    static class OtherQuotes {

        @Hedged(name = "quotes", delay = "80ms")
        public CompletableFuture<String> quote(String currency) {
            return CompletableFuture.completedFuture(currency);
        }

    }

    static class BadQuotes {

        @Hedged(maxHedges = 11)
        public CompletableFuture<String> quote(String currency) {
            return CompletableFuture.completedFuture(currency);
        }

    }

    static class SlowQuotes {

        @Hedged(delay = "2h")
        public CompletableFuture<String> quote(String currency) {
            return CompletableFuture.completedFuture(currency);
        }

    }

}
