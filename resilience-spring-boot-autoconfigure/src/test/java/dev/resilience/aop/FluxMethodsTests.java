package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Hedged;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * What the start refuses on a method returning {@code Flux}: {@code @Hedged},
 * {@code @Idempotent} and {@code @Fallback(lastGood)}, a fallback whose elements do not
 * fit ({@link FallbackMethods}), and a {@code Flux} without Reactor
 * ({@link ProtectableMethods}); and a method returning {@code Flux} with the other
 * annotations starts.
 */
class FluxMethodsTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class);

    @Test
    void retryableMethodReturningAFluxStarts() {
        this.contextRunner.withBean("feeds", RetryableFeeds.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(RetryableFeeds.class).quotes().collectList().block()).containsExactly("a", "b");
        });
    }

    @Test
    void hedgedFluxFailsTheStart() {
        this.contextRunner.withBean("feeds", HedgedFeeds.class)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("Invalid resilience setting of bean 'feeds', method HedgedFeeds#quotes:")
                .contains("Setting: @Hedged")
                .contains("Reason: a Flux cannot be hedged")
                .contains("Action: Remove @Hedged, or hedge a method returning Mono"));
    }

    @Test
    void idempotentFluxFailsTheStart() {
        this.contextRunner.withBean("feeds", IdempotentFeeds.class)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("method IdempotentFeeds#quotes:")
                .contains("Setting: @Idempotent")
                .contains("Reason: a Flux cannot be stored as one value to replay")
                .contains("Action: Return the collected elements from the idempotent method"));
    }

    @Test
    void lastGoodValueOfAFluxFailsTheStart() {
        this.contextRunner.withBean("feeds", LastGoodFeeds.class)
            .run((context) -> assertThat(describe(context.getStartupFailure())).contains("method LastGoodFeeds#quotes:")
                .contains("Setting: @Fallback(lastGood)")
                .contains("Reason: a last good value is one value, while a Flux is a stream")
                .contains("Action: Name fallback methods in @Fallback(value) instead of lastGood"));
    }

    @Test
    void fluxIsRefusedWhenTheApplicationsClassLoaderHasNoReactor() throws NoSuchMethodException {
        Method quotes = RetryableFeeds.class.getMethod("quotes");

        assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> ProtectableMethods.requireSupportedReturnType(quotes, "feeds",
                    new FilteredClassLoader("reactor.")))
            .satisfies((ex) -> assertThat(FailureAnalyses.describe(ex))
                .contains("Reason: a Flux is protected only when Reactor is on the application's class path")
                .contains("Action: Add io.projectreactor:reactor-core"));
    }

    @Test
    void fallbackFluxOfAnotherElementTypeIsRefused() {
        assertThatExceptionOfType(InvalidResiliencePolicyException.class).isThrownBy(() -> resolve("countFlux"))
            .satisfies((ex) -> assertThat(FailureAnalyses.describe(ex))
                .contains("it returns reactor.core.publisher.Flux<java.lang.Integer>, whose elements are not "
                        + "assignable to java.lang.String, the element type of "
                        + "reactor.core.publisher.Flux<java.lang.String>")
                .contains("Action: Make 'countFlux' return Flux<String>, String or List<String>."));
    }

    @Test
    void fallbackOfNeitherAFluxNorAnElementNorItsElementsIsRefused() {
        assertThat(List.of("count", "counts", "nameMono"))
            .allSatisfy((name) -> assertThatExceptionOfType(InvalidResiliencePolicyException.class)
                .isThrownBy(() -> resolve(name))
                .satisfies((ex) -> assertThat(ex.getMessage())
                    .contains("which is neither a Flux, nor assignable to java.lang.String, the element type of "
                            + "reactor.core.publisher.Flux<java.lang.String>, nor an Iterable of it")));
    }

    @Test
    void fallbacksOfAFluxOfTheElementsAnElementOrAnIterableOfThemAreAccepted() {
        assertThat(List.of("nameFlux", "rawFlux", "name", "nameList", "nameSet"))
            .allSatisfy((name) -> assertThatNoException().isThrownBy(() -> resolve(name)));
    }

    private static void resolve(String fallback) throws NoSuchMethodException {
        Method guarded = FallbackFeeds.class.getMethod("quotes");
        Fallback annotation = FallbackFeeds.class.getMethod(fallback + "Guarded").getAnnotation(Fallback.class);
        FallbackMethods.resolve(guarded, FallbackFeeds.class, annotation, "feeds");
    }

    private static String describe(Throwable failure) {
        assertThat(failure).as("start failure").isNotNull();
        return FailureAnalyses.describe(failure);
    }

    static class RetryableFeeds {

        @Retryable(maxAttempts = 2)
        public Flux<String> quotes() {
            return Flux.just("a", "b");
        }

    }

    static class HedgedFeeds {

        @Hedged(delay = "100ms")
        public Flux<String> quotes() {
            return Flux.just("a");
        }

    }

    static class IdempotentFeeds {

        @Idempotent(key = "#symbol")
        public Flux<String> quotes(String symbol) {
            return Flux.just(symbol);
        }

    }

    static class LastGoodFeeds {

        @Fallback(lastGood = "1h")
        public Flux<String> quotes() {
            return Flux.just("a");
        }

    }

    /**
     * A method returning {@code Flux<String>} and, for each fallback, a method carrying
     * the {@code @Fallback} that names it.
     */
    static class FallbackFeeds {

        public Flux<String> quotes() {
            return Flux.just("a");
        }

        @Fallback("countFlux")
        public void countFluxGuarded() {
        }

        Flux<Integer> countFlux() {
            return Flux.just(1);
        }

        @Fallback("count")
        public void countGuarded() {
        }

        Integer count() {
            return 1;
        }

        @Fallback("counts")
        public void countsGuarded() {
        }

        List<Integer> counts() {
            return List.of(1);
        }

        @Fallback("nameMono")
        public void nameMonoGuarded() {
        }

        Mono<String> nameMono() {
            return Mono.just("a");
        }

        @Fallback("nameFlux")
        public void nameFluxGuarded() {
        }

        Flux<String> nameFlux() {
            return Flux.just("a");
        }

        @Fallback("rawFlux")
        public void rawFluxGuarded() {
        }

        @SuppressWarnings("rawtypes")
        Flux rawFlux() {
            return Flux.just("a");
        }

        @Fallback("name")
        public void nameGuarded() {
        }

        String name() {
            return "a";
        }

        @Fallback("nameList")
        public void nameListGuarded() {
        }

        List<String> nameList() {
            return List.of("a");
        }

        @Fallback("nameSet")
        public void nameSetGuarded() {
        }

        Set<String> nameSet() {
            return Set.of("a");
        }

    }

}
