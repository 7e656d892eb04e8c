package dev.resilience.cloud.circuitbreaker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.cloud.autoconfigure.ResilienceCloudCircuitBreakerAutoConfiguration;
import dev.resilience.core.AttemptTimeoutException;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.client.circuitbreaker.CircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.Customizer;
import org.springframework.cloud.client.circuitbreaker.NoFallbackAvailableException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The blocking factory over the engine, on the virtual clock: which policies run for an
 * id, what the fallback receives, and the bound on the names of unconfigured ids.
 */
@ExtendWith(OutputCaptureExtension.class)
class ResilienceCircuitBreakerFactoryTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                ResilienceCloudCircuitBreakerAutoConfiguration.class))
        .withBean(TimeSource.class, VirtualTimeSource::new)
        .withPropertyValues("resilience.retry.defaults.jitter=none", "resilience.retry.defaults.delay=100ms",
                "resilience.circuit-breaker.instances.inventory.minimum-calls=2",
                "resilience.circuit-breaker.instances.inventory.sliding-window-size=2",
                "resilience.circuit-breaker.instances.inventory.wait-in-open=30s",
                "resilience.circuit-breaker.instances.inventory.half-open-calls=1");

    @Test
    void breakerOfTheIdOpensAfterTheConfiguredFailuresAndTheFallbackReceivesEachFailure() {
        this.runner.run((context) -> {
            CircuitBreaker breaker = factory(context).create("inventory");
            List<Throwable> received = new ArrayList<>();
            AtomicInteger runs = new AtomicInteger();
            for (int call = 0; call < 3; call++) {
                String value = breaker.run(() -> {
                    runs.incrementAndGet();
                    throw new IllegalStateException("inventory down");
                }, (error) -> {
                    received.add(error);
                    return "fallback";
                });
                assertThat(value).isEqualTo("fallback");
            }
            assertThat(runs).hasValue(2);
            assertThat(received).hasSize(3);
            assertThat(received.subList(0, 2))
                .allSatisfy((error) -> assertThat(error).isInstanceOf(IllegalStateException.class)
                    .hasMessage("inventory down"));
            assertThat(received.get(2)).isInstanceOf(CallNotPermittedException.class);
            assertThat(registry(context).findCircuitBreaker("inventory")).get()
                .satisfies((registered) -> assertThat(registered.state()).isEqualTo(CircuitBreakerState.OPEN));
        });
    }

    @Test
    void openBreakerLetsAProbeThroughAfterWaitInOpenAndItsSuccessClosesIt() {
        this.runner.run((context) -> {
            CircuitBreaker breaker = factory(context).create("inventory");
            for (int call = 0; call < 2; call++) {
                breaker.run(() -> {
                    throw new IllegalStateException("inventory down");
                }, (error) -> "fallback");
            }
            dev.resilience.core.circuitbreaker.CircuitBreaker registered = registry(context)
                .findCircuitBreaker("inventory")
                .orElseThrow();
            assertThat(registered.state()).isEqualTo(CircuitBreakerState.OPEN);
            clock(context).advance(Duration.ofSeconds(30));
            assertThat(breaker.run(() -> "in stock", (error) -> "fallback")).isEqualTo("in stock");
            assertThat(registered.state()).isEqualTo(CircuitBreakerState.CLOSED);
        });
    }

    @Test
    void retryInstanceOfTheIdRetriesWithItsBackoffAndTheFallbackReceivesTheLastFailure() {
        this.runner.withPropertyValues("resilience.retry.instances.catalog.max-attempts=3").run((context) -> {
            AtomicInteger runs = new AtomicInteger();
            List<Throwable> received = new ArrayList<>();
            String value = factory(context).create("catalog").run(() -> {
                throw new IllegalStateException("attempt " + runs.incrementAndGet());
            }, (error) -> {
                received.add(error);
                return "fallback";
            });
            assertThat(value).isEqualTo("fallback");
            assertThat(runs).hasValue(3);
            assertThat(clock(context).sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
            assertThat(received).singleElement().satisfies((error) -> assertThat(error).hasMessage("attempt 3"));
        });
    }

    @Test
    void idWithoutRetryInstanceIsAttemptedOnce() {
        this.runner.run((context) -> {
            AtomicInteger runs = new AtomicInteger();
            factory(context).create("orders").run(() -> {
                runs.incrementAndGet();
                throw new IllegalStateException("orders down");
            }, (error) -> "fallback");
            assertThat(runs).hasValue(1);
            assertThat(registry(context).findRetryPolicy("orders")).isEmpty();
            assertThat(registry(context).findCircuitBreaker("orders")).isPresent();
        });
    }

    @Test
    void selectionOfAnIdSwitchesRetryOnWithTheYamlDefaults() {
        this.runner.withPropertyValues("resilience.retry.defaults.max-attempts=4").run((context) -> {
            ResilienceCircuitBreakerFactory factory = factory(context);
            factory.configure(PolicySelection.Builder::retry, "orders");
            AtomicInteger runs = new AtomicInteger();
            factory.create("orders").run(() -> {
                runs.incrementAndGet();
                throw new IllegalStateException("orders down");
            }, (error) -> "fallback");
            assertThat(runs).hasValue(4);
        });
    }

    @Test
    void defaultSelectionAppliesToEveryIdThatConfigureDoesNotName() {
        this.runner.withPropertyValues("resilience.retry.defaults.max-attempts=2").run((context) -> {
            ResilienceCircuitBreakerFactory factory = factory(context);
            factory.configureDefault((id) -> PolicySelection.builder().retry().build());
            factory.configure((selection) -> {
            }, "once");
            AtomicInteger retried = new AtomicInteger();
            AtomicInteger once = new AtomicInteger();
            factory.create("retried").run(() -> {
                retried.incrementAndGet();
                throw new IllegalStateException("down");
            }, (error) -> "fallback");
            factory.create("once").run(() -> {
                once.incrementAndGet();
                throw new IllegalStateException("down");
            }, (error) -> "fallback");
            assertThat(retried).hasValue(2);
            assertThat(once).hasValue(1);
        });
    }

    @Test
    void attemptOutlivingTheTimeLimitOfTheIdIsATimeoutAndItsLateValueIsDiscarded() {
        this.runner.withPropertyValues("resilience.time-limiter.instances.slow.timeout=1s").run((context) -> {
            VirtualTimeSource clock = clock(context);
            List<Throwable> received = new ArrayList<>();
            String value = factory(context).create("slow").run(() -> {
                clock.advance(Duration.ofSeconds(2));
                return "late";
            }, (error) -> {
                received.add(error);
                return "fallback";
            });
            assertThat(value).isEqualTo("fallback");
            assertThat(received).singleElement().isInstanceOf(AttemptTimeoutException.class);
            assertThat(Thread.interrupted()).isFalse();
        });
    }

    @Test
    void callBeyondTheBulkheadOfTheIdIsRefusedAndTheFallbackReceivesTheRefusal() {
        this.runner.withPropertyValues("resilience.bulkhead.instances.narrow.max-concurrent-calls=1").run((context) -> {
            CircuitBreaker breaker = factory(context).create("narrow");
            List<Throwable> received = new ArrayList<>();
            AtomicInteger innerRuns = new AtomicInteger();
            String outer = breaker.run(() -> breaker.run(() -> "inner " + innerRuns.incrementAndGet(), (error) -> {
                received.add(error);
                return "refused";
            }), (error) -> "outer fallback");
            assertThat(outer).isEqualTo("refused");
            assertThat(innerRuns).hasValue(0);
            assertThat(received).singleElement().isInstanceOf(BulkheadFullException.class);
            assertThat(breaker.run(() -> "again", (error) -> "fallback")).isEqualTo("again");
        });
    }

    @Test
    void callWithoutFallbackThrowsNoFallbackAvailableCausedByTheFailure() {
        this.runner.run((context) -> {
            IllegalStateException failure = new IllegalStateException("down");
            assertThatExceptionOfType(NoFallbackAvailableException.class)
                .isThrownBy(() -> factory(context).create("orders").run(() -> {
                    throw failure;
                }))
                .withCause(failure);
            assertThat(factory(context).create("orders").run(() -> "fine")).isEqualTo("fine");
        });
    }

    @Test
    void failureOfTheFallbackIsThrownToTheCaller() {
        this.runner.run((context) -> assertThatIllegalStateException()
            .isThrownBy(() -> factory(context).create("orders").run(() -> {
                throw new IllegalArgumentException("down");
            }, (error) -> {
                throw new IllegalStateException("fallback down too", error);
            }))
            .withMessage("fallback down too")
            .withCauseInstanceOf(IllegalArgumentException.class));
    }

    @Test
    void errorGoesToNoFallbackAndIsThrownAsItIs() {
        this.runner.run((context) -> {
            AtomicInteger fallbacks = new AtomicInteger();
            assertThatExceptionOfType(StackOverflowError.class)
                .isThrownBy(() -> factory(context).create("orders").run(() -> {
                    throw new StackOverflowError();
                }, (error) -> "fallback " + fallbacks.incrementAndGet()));
            assertThat(fallbacks).hasValue(0);
        });
    }

    @Test
    void unconfiguredIdsBeyondMaxIdsShareOneBreakerWhileConfiguredIdsKeepTheirs(CapturedOutput output) {
        this.runner.withPropertyValues("spring.cloud.circuitbreaker.resilience.max-ids=2").run((context) -> {
            ResilienceCircuitBreakerFactory factory = factory(context);
            for (int id = 0; id < 50; id++) {
                factory.create("user-" + id).run(() -> "ok");
            }
            factory.create("inventory").run(() -> "ok");
            factory.create("user-0").run(() -> "ok");
            assertThat(registry(context).circuitBreakers()).containsOnlyKeys("user-0", "user-1",
                    CircuitBreakerIds.OTHER_IDS, "inventory");
            assertThat(registry(context).statistics()).containsOnlyKeys("user-0", "user-1", CircuitBreakerIds.OTHER_IDS,
                    "inventory");
            assertThat(output.getAll().split("share the instances", -1)).as("one warning, at the first shared id")
                .hasSize(2);
            assertThat(output)
                .contains("id 'user-2' and the unconfigured ids after it share the instances " + "'spring-cloud:other'")
                .contains("(spring.cloud.circuitbreaker.resilience.max-ids)");
        });
    }

    @Test
    void unconfiguredIdOfAConfiguredGroupUsesTheGroupsInstances() {
        this.runner.withPropertyValues("resilience.circuit-breaker.instances.InventoryClient.minimum-calls=1")
            .run((context) -> {
                ResilienceCircuitBreakerFactory factory = factory(context);
                factory.create("InventoryClientstockString", "InventoryClient").run(() -> "ok");
                factory.create("InventoryClientpriceString", "InventoryClient").run(() -> "ok");
                factory.create("inventory", "InventoryClient").run(() -> "ok");
                assertThat(registry(context).circuitBreakers()).containsOnlyKeys("InventoryClient", "inventory");
            });
    }

    @Test
    void blockingAndReactiveBreakersOfOneIdAreOneRegistryBreaker() {
        this.runner.run((context) -> {
            factory(context).create("inventory").run(() -> {
                throw new IllegalStateException("down");
            }, (error) -> "fallback");
            ReactiveResilienceCircuitBreakerFactory reactive = context
                .getBean(ReactiveResilienceCircuitBreakerFactory.class);
            reactive.create("inventory")
                .run(reactor.core.publisher.Mono.error(new IllegalStateException("down")),
                        (error) -> reactor.core.publisher.Mono.just("fallback"))
                .block(Duration.ofSeconds(5));
            assertThat(registry(context).findCircuitBreaker("inventory").orElseThrow().state())
                .isEqualTo(CircuitBreakerState.OPEN);
        });
    }

    @Test
    void customizerOfTheFactoryIsAppliedBeforeUse() {
        this.runner.withUserConfiguration(RetryingOrders.class).run((context) -> {
            AtomicInteger runs = new AtomicInteger();
            factory(context).create("orders").run(() -> {
                runs.incrementAndGet();
                throw new IllegalStateException("down");
            }, (error) -> "fallback");
            assertThat(runs).hasValue(3);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class RetryingOrders {

        @Bean
        Customizer<ResilienceCircuitBreakerFactory> retryingOrders() {
            return (factory) -> factory.configure(PolicySelection.Builder::retry, "orders");
        }

    }

    private static ResilienceCircuitBreakerFactory factory(AssertableApplicationContext context) {
        return context.getBean(ResilienceCircuitBreakerFactory.class);
    }

    private static ResilienceRegistry registry(AssertableApplicationContext context) {
        return context.getBean(ResilienceRegistry.class);
    }

    private static VirtualTimeSource clock(AssertableApplicationContext context) {
        return (VirtualTimeSource) context.getBean(TimeSource.class);
    }

}
