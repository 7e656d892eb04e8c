package dev.resilience.aop;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An observation handler that throws when an observation stops (a tracing bridge or meter
 * handler with a bug, a registry that refuses a meter). DESIGN section 11: "Exceptions
 * never escape the machinery ... A returned future always completes." The interceptor
 * stops the call's observation inside the {@code whenComplete} callback that also
 * completes the future it returned, before completing it: the handler's exception is
 * swallowed by that callback and the caller's future never completes. A handler that
 * throws when the call's scope opens or closes around an attempt is logged, the call runs
 * on, and the thread's current observation is put back as it was. The claim of an
 * idempotent call is released when its subscription is disposed, whatever the handler
 * throws when the call's observation stops.
 */
class ObservationHandlerFailureTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(ObservationRegistry.class, ObservationHandlerFailureTests::registryFailingOnStop)
        .withBean(Quotes.class);

    @Test
    void futureOfAnAsyncCallCompletesThoughAnObservationHandlerThrowsOnStop() {
        this.contextRunner.run((context) -> {
            CompletableFuture<String> future = context.getBean(Quotes.class).quoteAsync("ETH");

            assertThat(future).succeedsWithin(Duration.ofSeconds(2)).isEqualTo("quote of ETH");
        });
    }

    @Test
    void valueOfASyncCallIsReturnedThoughAnObservationHandlerThrowsOnStop() {
        this.contextRunner.run((context) -> {
            Quotes quotes = context.getBean(Quotes.class);

            Throwable failure = catchThrowable(() -> assertThat(quotes.quote("ETH")).isEqualTo("quote of ETH"));

            assertThat(failure).as("what the caller of a successful call gets").isNull();
        });
    }

    @Test
    void callRunsAndLeavesNoObservationInScopeThoughAHandlerThrowsWhenTheScopeOpens() {
        this.contextRunner.withAllowBeanDefinitionOverriding(true)
            .withBean(ObservationRegistry.class, () -> registryFailingOnScope(true))
            .run((context) -> {
                Quotes quotes = context.getBean(Quotes.class);

                assertThat(quotes.quote("ETH")).isEqualTo("quote of ETH");
                assertThat(quotes.quoteAsync("ETH")).succeedsWithin(Duration.ofSeconds(2)).isEqualTo("quote of ETH");
                assertThat(context.getBean(ObservationRegistry.class).getCurrentObservation()).isNull();
            });
    }

    @Test
    void callRunsAndLeavesNoObservationInScopeThoughAHandlerThrowsWhenTheScopeCloses() {
        this.contextRunner.withAllowBeanDefinitionOverriding(true)
            .withBean(ObservationRegistry.class, () -> registryFailingOnScope(false))
            .run((context) -> {
                Quotes quotes = context.getBean(Quotes.class);

                assertThat(quotes.quote("ETH")).isEqualTo("quote of ETH");
                assertThat(quotes.quoteAsync("ETH")).succeedsWithin(Duration.ofSeconds(2)).isEqualTo("quote of ETH");
                assertThat(context.getBean(ObservationRegistry.class).getCurrentObservation()).isNull();
            });
    }

    @Test
    void claimOfADisposedMonoCallIsReleasedThoughAnObservationHandlerThrowsOnStop() {
        this.contextRunner.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
            .withPropertyValues("resilience.async.executor=callerRuns")
            .withBean("callerRuns", Executor.class, () -> Runnable::run)
            .run((context) -> {
                Quotes quotes = context.getBean(Quotes.class);
                AtomicInteger subscriptions = new AtomicInteger();
                AtomicInteger cancellations = new AtomicInteger();
                quotes.payments(Mono.<String>never()
                    .doOnSubscribe((subscription) -> subscriptions.incrementAndGet())
                    .doOnCancel(cancellations::incrementAndGet));

                StepVerifier.create(quotes.pay("k-1"))
                    .then(() -> assertThat(subscriptions).as("the running attempt").hasValue(1))
                    .thenCancel()
                    .verify(Duration.ofSeconds(10));
                assertThat(cancellations).hasValue(1);
                quotes.payments(Mono.just("receipt"));

                StepVerifier.create(quotes.pay("k-1"))
                    .expectNext("receipt")
                    .expectComplete()
                    .verify(Duration.ofSeconds(10));
            });
    }

    private static ObservationRegistry registryFailingOnScope(boolean onOpen) {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {

            @Override
            public void onScopeOpened(Observation.Context context) {
                if (onOpen) {
                    throw new IllegalStateException("handler failed on scope opened");
                }
            }

            @Override
            public void onScopeClosed(Observation.Context context) {
                if (!onOpen) {
                    throw new IllegalStateException("handler failed on scope closed");
                }
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        return registry;
    }

    private static ObservationRegistry registryFailingOnStop() {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {

            @Override
            public void onStop(Observation.Context context) {
                throw new IllegalStateException("handler failed on stop");
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        return registry;
    }

    static class Quotes {

        private volatile Mono<String> payments = Mono.just("receipt");

        void payments(Mono<String> payments) {
            this.payments = payments;
        }

        @Idempotent(name = "observed-payments", key = "#key")
        public Mono<String> pay(String key) {
            return this.payments;
        }

        @Retryable("async-quotes")
        public CompletableFuture<String> quoteAsync(String symbol) {
            return CompletableFuture.completedFuture("quote of " + symbol);
        }

        @Retryable("quotes")
        public String quote(String symbol) {
            return "quote of " + symbol;
        }

    }

}
