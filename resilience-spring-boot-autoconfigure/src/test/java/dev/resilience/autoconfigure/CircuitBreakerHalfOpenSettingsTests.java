package dev.resilience.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerListener;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.circuitbreaker.CircuitBreakerTransition;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * {@code max-wait-in-half-open} and {@code automatic-transition-to-half-open} set in YAML
 * reach the breakers, whose timed transitions run on the executor of
 * {@code resilience.async.executor}.
 */
class CircuitBreakerHalfOpenSettingsTests {

    private static final String YAML = """
            resilience:
              circuit-breaker:
                defaults:
                  automatic-transition-to-half-open: true
                  max-wait-in-half-open: 45s
                instances:
                  payment-gateway:
                    sliding-window-size: 2
                    minimum-calls: 2
                    half-open-calls: 1
                    max-wait-in-half-open: 20s
            """;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final Instant start = this.clock.now();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withInitializer(yaml(YAML))
        .withBean(VirtualTimeSource.class, () -> this.clock);

    @Test
    void breakerConfiguredInYamlMovesToHalfOpenByItselfAndBackToOpenWhenItsProbeHangs() {
        this.contextRunner.withBean("applicationTaskExecutor", Executor.class, () -> Runnable::run).run((context) -> {
            CircuitBreaker breaker = context.getBean(ResilienceRegistry.class).circuitBreakers().get("payment-gateway");
            List<CircuitBreakerTransition> transitions = recordTransitions(breaker);
            open(breaker);

            this.clock.advance(Duration.ofSeconds(30));
            assertThat(breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
            CircuitBreaker.Permit hung = breaker.acquirePermit();
            this.clock.advance(Duration.ofSeconds(20));
            assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
            breaker.onSuccess(hung, 0);

            assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
            assertThat(breaker.metrics().successfulCallsTotal()).isZero();
            assertThat(transitions).extracting(CircuitBreakerTransition::to, CircuitBreakerTransition::at)
                .containsExactly(tuple(CircuitBreakerState.OPEN, this.start),
                        tuple(CircuitBreakerState.HALF_OPEN, this.start.plusSeconds(30)),
                        tuple(CircuitBreakerState.OPEN, this.start.plusSeconds(50)));
        });
    }

    @Test
    void timedTransitionsRunOnTheExecutorNamedByResilienceAsyncExecutor() {
        List<Runnable> handedOver = new ArrayList<>();
        this.contextRunner.withBean("breakerExecutor", Executor.class, () -> handedOver::add)
            .withPropertyValues("resilience.async.executor=breakerExecutor")
            .run((context) -> {
                CircuitBreaker breaker = context.getBean(ResilienceRegistry.class)
                    .circuitBreakers()
                    .get("payment-gateway");
                open(breaker);

                this.clock.advance(Duration.ofSeconds(30));
                assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
                assertThat(handedOver).hasSize(1);
                handedOver.get(0).run();

                assertThat(breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
            });
    }

    @Test
    void onAVirtualClockTimedTransitionsRunOnTheThreadThatAdvancesItUnlessAnExecutorIsNamed() {
        List<Runnable> handedOver = new ArrayList<>();
        this.contextRunner.withBean("applicationTaskExecutor", Executor.class, () -> handedOver::add).run((context) -> {
            CircuitBreaker breaker = context.getBean(ResilienceRegistry.class).circuitBreakers().get("payment-gateway");
            open(breaker);

            this.clock.advance(Duration.ofSeconds(30));

            assertThat(breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
            assertThat(handedOver).isEmpty();
        });
    }

    private static void open(CircuitBreaker breaker) {
        for (int i = 0; i < 2; i++) {
            breaker.onError(breaker.acquirePermit(), 0, new IOException("down"));
        }
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN);
    }

    private static List<CircuitBreakerTransition> recordTransitions(CircuitBreaker breaker) {
        List<CircuitBreakerTransition> transitions = new ArrayList<>();
        breaker.addListener(new CircuitBreakerListener() {
            @Override
            public void onStateTransition(CircuitBreakerTransition transition) {
                transitions.add(transition);
            }
        });
        return transitions;
    }

    private static ApplicationContextInitializer<ConfigurableApplicationContext> yaml(String text) {
        return (context) -> {
            try {
                new YamlPropertySourceLoader()
                    .load("application.yml", new ByteArrayResource(text.getBytes(StandardCharsets.UTF_8)))
                    .forEach(context.getEnvironment().getPropertySources()::addFirst);
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        };
    }

}
