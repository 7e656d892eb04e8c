package dev.resilience.aop;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An observation handler that throws when an observation stops (a tracing bridge or meter
 * handler with a bug, a registry that refuses a meter). DESIGN section 11: "Exceptions
 * never escape the machinery ... A returned future always completes." The interceptor
 * stops the call's observation inside the {@code whenComplete} callback that also
 * completes the future it returned, before completing it: the handler's exception is
 * swallowed by that callback and the caller's future never completes.
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
