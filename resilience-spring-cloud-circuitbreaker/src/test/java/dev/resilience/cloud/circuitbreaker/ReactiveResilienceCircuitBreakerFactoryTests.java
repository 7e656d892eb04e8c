package dev.resilience.cloud.circuitbreaker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
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
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.client.circuitbreaker.NoFallbackAvailableException;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreaker;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reactive factory over the engine, on the virtual clock, whose timers only fire when
 * a test advances it: attempts are subscriptions, backoffs are timers, disposing a call
 * stops its attempts.
 */
class ReactiveResilienceCircuitBreakerFactoryTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                ResilienceCloudCircuitBreakerAutoConfiguration.class))
        .withBean(TimeSource.class, VirtualTimeSource::new)
        .withPropertyValues("resilience.retry.defaults.jitter=none", "resilience.retry.defaults.delay=100ms",
                "resilience.retry.instances.catalog.max-attempts=3",
                "resilience.circuit-breaker.instances.inventory.minimum-calls=2",
                "resilience.circuit-breaker.instances.inventory.sliding-window-size=2");

    @Test
    void monoIsSubscribedOncePerAttemptAndEachBackoffIsATimerOfTheClock() {
        this.runner.run((context) -> {
            AtomicInteger subscriptions = new AtomicInteger();
            Mono<String> failing = Mono
                .defer(() -> Mono.error(new IllegalStateException("attempt " + subscriptions.incrementAndGet())));
            List<Throwable> received = new ArrayList<>();
            CompletableFuture<String> call = factory(context).create("catalog").run(failing, (error) -> {
                received.add(error);
                return Mono.just("fallback");
            }).toFuture();
            assertThat(subscriptions).hasValue(1);
            clock(context).advance(Duration.ofMillis(99));
            assertThat(subscriptions).hasValue(1);
            clock(context).advance(Duration.ofMillis(1));
            assertThat(subscriptions).hasValue(2);
            clock(context).advance(Duration.ofMillis(200));
            assertThat(subscriptions).hasValue(3);
            assertThat(call).isCompletedWithValue("fallback");
            assertThat(received).singleElement().satisfies((error) -> assertThat(error).hasMessage("attempt 3"));
        });
    }

    @Test
    void openBreakerRejectsWithoutSubscribingAndTheFallbackReceivesTheRejection() {
        this.runner.run((context) -> {
            ReactiveCircuitBreaker breaker = factory(context).create("inventory");
            AtomicInteger subscriptions = new AtomicInteger();
            Mono<String> failing = Mono.defer(() -> {
                subscriptions.incrementAndGet();
                return Mono.error(new IllegalStateException("inventory down"));
            });
            List<Throwable> received = new ArrayList<>();
            for (int call = 0; call < 3; call++) {
                assertThat(breaker.run(failing, (error) -> {
                    received.add(error);
                    return Mono.just("fallback");
                }).toFuture()).isCompletedWithValue("fallback");
            }
            assertThat(subscriptions).hasValue(2);
            assertThat(received).hasSize(3);
            assertThat(received.get(0)).isInstanceOf(IllegalStateException.class);
            assertThat(received.get(2)).isInstanceOf(CallNotPermittedException.class);
            assertThat(registry(context).findCircuitBreaker("inventory").orElseThrow().state())
                .isEqualTo(CircuitBreakerState.OPEN);
        });
    }

    @Test
    void disposingACallInItsBackoffStartsNoFurtherAttemptNorFallback() {
        this.runner.run((context) -> {
            AtomicInteger subscriptions = new AtomicInteger();
            AtomicInteger fallbacks = new AtomicInteger();
            Mono<String> failing = Mono.defer(() -> {
                subscriptions.incrementAndGet();
                return Mono.error(new IllegalStateException("down"));
            });
            Disposable call = factory(context).create("catalog").run(failing, (error) -> {
                fallbacks.incrementAndGet();
                return Mono.just("fallback");
            }).subscribe();
            assertThat(subscriptions).hasValue(1);
            call.dispose();
            clock(context).advance(Duration.ofSeconds(10));
            assertThat(subscriptions).hasValue(1);
            assertThat(fallbacks).hasValue(0);
            assertThat(clock(context).pendingTasks()).isZero();
        });
    }

    @Test
    void disposingACallDuringAnAttemptCancelsTheAttemptsSubscription() {
        this.runner.run((context) -> {
            AtomicInteger subscriptions = new AtomicInteger();
            AtomicBoolean cancelled = new AtomicBoolean();
            Mono<String> hanging = Mono.<String>never()
                .doOnSubscribe((subscription) -> subscriptions.incrementAndGet())
                .doOnCancel(() -> cancelled.set(true));
            Disposable call = factory(context).create("catalog")
                .run(hanging, (error) -> Mono.just("fallback"))
                .subscribe();
            call.dispose();
            clock(context).advance(Duration.ofSeconds(10));
            assertThat(cancelled).isTrue();
            assertThat(subscriptions).hasValue(1);
        });
    }

    @Test
    void attemptOutlivingTheTimeLimitIsCancelledAndTheFallbackReceivesTheTimeout() {
        this.runner.withPropertyValues("resilience.time-limiter.instances.slow.timeout=1s").run((context) -> {
            AtomicBoolean cancelled = new AtomicBoolean();
            List<Throwable> received = new ArrayList<>();
            CompletableFuture<String> call = factory(context).create("slow")
                .run(Mono.<String>never().doOnCancel(() -> cancelled.set(true)), (error) -> {
                    received.add(error);
                    return Mono.just("fallback");
                })
                .toFuture();
            assertThat(call).isNotDone();
            clock(context).advance(Duration.ofSeconds(1));
            assertThat(call).isCompletedWithValue("fallback");
            assertThat(cancelled).isTrue();
            assertThat(received).singleElement().isInstanceOf(AttemptTimeoutException.class);
        });
    }

    @Test
    void callBeyondTheBulkheadIsRefusedAndDisposingTheHolderGivesItsPermitBack() {
        this.runner.withPropertyValues("resilience.bulkhead.instances.narrow.max-concurrent-calls=1").run((context) -> {
            ReactiveCircuitBreaker breaker = factory(context).create("narrow");
            Disposable holder = breaker.run(Mono.<String>never(), (error) -> Mono.just("fallback")).subscribe();
            List<Throwable> received = new ArrayList<>();
            assertThat(breaker.run(Mono.just("second"), (error) -> {
                received.add(error);
                return Mono.just("refused");
            }).toFuture()).isCompletedWithValue("refused");
            assertThat(received).singleElement().isInstanceOf(BulkheadFullException.class);
            holder.dispose();
            assertThat(breaker.run(Mono.just("third"), (error) -> Mono.just("refused")).toFuture())
                .isCompletedWithValue("third");
        });
    }

    @Test
    void monoWithoutFallbackSignalsNoFallbackAvailableCausedByTheFailure() {
        this.runner.run((context) -> {
            IllegalStateException failure = new IllegalStateException("down");
            CompletableFuture<String> call = factory(context).create("orders")
                .run(Mono.<String>error(failure))
                .toFuture();
            assertThat(call).isCompletedExceptionally();
            assertThat(call.handle((value, error) -> error).join()).isInstanceOf(NoFallbackAvailableException.class)
                .hasCause(failure);
            assertThat(factory(context).create("orders").run(Mono.<String>empty()).toFuture())
                .isCompletedWithValue(null);
        });
    }

    @Test
    void fluxFailingBeforeItsFirstElementIsRetriedAndTheWinningAttemptIsEmittedWhole() {
        this.runner.run((context) -> {
            AtomicInteger subscriptions = new AtomicInteger();
            Flux<Integer> flaky = Flux.defer(() -> (subscriptions.incrementAndGet() < 3)
                    ? Flux.error(new IllegalStateException("down")) : Flux.range(1, 5));
            CompletableFuture<List<Integer>> call = factory(context).create("catalog")
                .run(flaky, (error) -> Flux.just(-1))
                .collectList()
                .toFuture();
            clock(context).advance(Duration.ofMillis(300));
            assertThat(call).isCompletedWithValue(List.of(1, 2, 3, 4, 5));
            assertThat(subscriptions).hasValue(3);
        });
    }

    @Test
    void fluxFailingAfterItsFirstElementIsNotRetriedAndTheErrorReachesTheSubscriber() {
        this.runner.run((context) -> {
            AtomicInteger subscriptions = new AtomicInteger();
            IllegalStateException failure = new IllegalStateException("cut");
            Flux<Integer> cut = Flux.defer(() -> {
                subscriptions.incrementAndGet();
                return Flux.just(1, 2).concatWith(Flux.error(failure));
            });
            List<Integer> received = new ArrayList<>();
            CompletableFuture<Throwable> ended = new CompletableFuture<>();
            factory(context).create("catalog")
                .run(cut, (error) -> Flux.just(-1))
                .subscribe(received::add, ended::complete, () -> ended.complete(null));
            clock(context).advance(Duration.ofSeconds(1));
            assertThat(received).containsExactly(1, 2);
            assertThat(ended).isCompletedWithValue(failure);
            assertThat(subscriptions).hasValue(1);
        });
    }

    @Test
    void fluxWhoseCallEndsWithoutAnElementGetsTheFallbacksFlux() {
        this.runner.run((context) -> {
            List<Throwable> received = new ArrayList<>();
            CompletableFuture<List<String>> call = factory(context).create("orders")
                .run(Flux.<String>error(new IllegalStateException("down")), (error) -> {
                    received.add(error);
                    return Flux.just("a", "b");
                })
                .collectList()
                .toFuture();
            assertThat(call).isCompletedWithValue(List.of("a", "b"));
            assertThat(received).singleElement().isInstanceOf(IllegalStateException.class);
            assertThat(factory(context).create("orders").run(Flux.<String>empty()).collectList().toFuture())
                .isCompletedWithValue(List.of());
        });
    }

    @Test
    void fluxIsAskedForAsMuchAsItsSubscriberAsks() {
        this.runner.run((context) -> {
            List<Long> requests = new ArrayList<>();
            Flux<Integer> counted = Flux.range(1, 100).doOnRequest(requests::add);
            CompletableFuture<List<Integer>> call = factory(context).create("orders")
                .run(counted, (error) -> Flux.empty())
                .take(3, true)
                .collectList()
                .toFuture();
            assertThat(call).isCompletedWithValue(List.of(1, 2, 3));
            assertThat(requests).containsExactly(1L, 2L);
        });
    }

    @Test
    void subscriptionCancelledInsideOnSubscribeSubscribesToNeitherTheMonoNorTheFlux() {
        this.runner.run((context) -> {
            AtomicInteger subscriptions = new AtomicInteger();
            ReactiveCircuitBreaker breaker = factory(context).create("orders");
            breaker
                .run(Mono.just("sent").doOnSubscribe((subscription) -> subscriptions.incrementAndGet()),
                        (error) -> Mono.just("fallback"))
                .subscribe(new CancellingInOnSubscribe<>());
            breaker
                .run(Flux.just("sent").doOnSubscribe((subscription) -> subscriptions.incrementAndGet()),
                        (error) -> Flux.just("fallback"))
                .subscribe(new CancellingInOnSubscribe<>());
            assertThat(subscriptions).hasValue(0);
            assertThat(breaker.run(Mono.just("sent"), (error) -> Mono.just("fallback")).toFuture())
                .isCompletedWithValue("sent");
        });
    }

    @Test
    void heldFirstElementOfACancelledFluxGoesToTheDiscardHook() {
        this.runner.run((context) -> {
            List<Object> discarded = new CopyOnWriteArrayList<>();
            BaseSubscriber<Integer> holding = new BaseSubscriber<>() {

                @Override
                protected void hookOnSubscribe(Subscription subscription) {
                }

            };
            factory(context).create("orders")
                .run(Flux.just(1, 2, 3))
                .doOnDiscard(Integer.class, discarded::add)
                .subscribe(holding);

            holding.cancel();

            assertThat(discarded).containsExactly(1);
        });
    }

    private static final class CancellingInOnSubscribe<T> extends BaseSubscriber<T> {

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            cancel();
        }

    }

    private static ReactiveResilienceCircuitBreakerFactory factory(AssertableApplicationContext context) {
        return context.getBean(ReactiveResilienceCircuitBreakerFactory.class);
    }

    private static ResilienceRegistry registry(AssertableApplicationContext context) {
        return context.getBean(ResilienceRegistry.class);
    }

    private static VirtualTimeSource clock(AssertableApplicationContext context) {
        return (VirtualTimeSource) context.getBean(TimeSource.class);
    }

}
