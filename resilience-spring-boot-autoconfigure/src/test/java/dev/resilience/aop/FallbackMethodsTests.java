package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.resilience.annotation.Fallback;
import dev.resilience.registry.InvalidResiliencePolicyException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The fallback methods a guarded method accepts, judged by their generic types: for a
 * method returning {@code Mono}, a {@code Mono} of its value type or a plain value of it;
 * for any other, its return type or a subtype, generics included.
 */
class FallbackMethodsTests {

    @Test
    void fallbackMonoOfAnotherValueTypeIsRefused() throws NoSuchMethodException {
        assertThatExceptionOfType(InvalidResiliencePolicyException.class).isThrownBy(() -> resolve("countMono"))
            .satisfies((ex) -> assertThat(ex.getMessage())
                .contains("it returns reactor.core.publisher.Mono<java.lang.Integer>, whose value is not assignable to "
                        + "java.lang.String, the value of reactor.core.publisher.Mono<java.lang.String>"));
    }

    @Test
    void plainFallbackOfAnotherGenericValueTypeIsRefused() throws NoSuchMethodException {
        assertThatExceptionOfType(InvalidResiliencePolicyException.class).isThrownBy(() -> resolve("counts"))
            .satisfies((ex) -> assertThat(ex.getMessage())
                .contains("it returns java.util.List<java.lang.Integer>, which is neither a Mono nor assignable to "
                        + "java.util.List<java.lang.String>, the value of "
                        + "reactor.core.publisher.Mono<java.util.List<java.lang.String>>"));
    }

    @Test
    void fallbacksOfTheValueTypeOrASubtypeAreAccepted() {
        assertThatNoException().isThrownBy(() -> resolve("namesMono"));
        assertThatNoException().isThrownBy(() -> resolve("nameList"));
        assertThatNoException().isThrownBy(() -> resolve("rawMono"));
        assertThatNoException().isThrownBy(() -> resolve("anyMono"));
    }

    @Test
    void fallbackFutureOfAnotherValueTypeIsRefused() {
        assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> resolveFor("price", "countFuture"))
            .satisfies((ex) -> assertThat(ex.getMessage())
                .contains("it returns java.util.concurrent.CompletableFuture<java.lang.Integer>, which is not "
                        + "assignable to java.util.concurrent.CompletableFuture<java.lang.String>"));
    }

    @Test
    void plainFallbackOfAnotherGenericTypeIsRefused() {
        assertThatExceptionOfType(InvalidResiliencePolicyException.class).isThrownBy(() -> resolveFor("skus", "counts"))
            .satisfies((ex) -> assertThat(ex.getMessage()).contains(
                    "it returns java.util.List<java.lang.Integer>, which is not assignable to java.util.List<java.lang.String>"));
    }

    @Test
    void fallbacksOfTheReturnTypeOrASubtypeAreAcceptedGenericsIncluded() {
        assertThatNoException().isThrownBy(() -> resolveFor("price", "priceFuture"));
        assertThatNoException().isThrownBy(() -> resolveFor("price", "rawFuture"));
        assertThatNoException().isThrownBy(() -> resolveFor("price", "anyFuture"));
        assertThatNoException().isThrownBy(() -> resolveFor("skus", "nameList"));
    }

    private static void resolveFor(String guardedName, String fallback) throws NoSuchMethodException {
        Method guarded = Quotes.class.getMethod(guardedName);
        Fallback annotation = Quotes.class.getMethod(fallback + "Guarded").getAnnotation(Fallback.class);
        FallbackMethods.resolve(guarded, Quotes.class, annotation, "quotes");
    }

    private static void resolve(String fallback) throws NoSuchMethodException {
        String guardedName = fallback.equals("countMono") ? "quote" : "names";
        Method guarded = Quotes.class.getMethod(guardedName);
        Fallback annotation = Quotes.class.getMethod(fallback + "Guarded").getAnnotation(Fallback.class);
        FallbackMethods.resolve(guarded, Quotes.class, annotation, "quotes");
    }

    static class Quotes {

        public Mono<String> quote() {
            return Mono.just("42");
        }

        public Mono<List<String>> names() {
            return Mono.just(List.of("a"));
        }

        public CompletableFuture<String> price() {
            return CompletableFuture.completedFuture("42");
        }

        public List<String> skus() {
            return List.of("a");
        }

        @Fallback("countMono")
        public void countMonoGuarded() {
        }

        @Fallback("countFuture")
        public void countFutureGuarded() {
        }

        @Fallback("priceFuture")
        public void priceFutureGuarded() {
        }

        @Fallback("rawFuture")
        public void rawFutureGuarded() {
        }

        @Fallback("anyFuture")
        public void anyFutureGuarded() {
        }

        CompletableFuture<Integer> countFuture() {
            return CompletableFuture.completedFuture(42);
        }

        CompletableFuture<String> priceFuture() {
            return CompletableFuture.completedFuture("41");
        }

        @SuppressWarnings("rawtypes")
        CompletableFuture rawFuture() {
            return CompletableFuture.completedFuture("40");
        }

        <T> CompletableFuture<T> anyFuture() {
            return CompletableFuture.failedFuture(new IllegalStateException("unavailable"));
        }

        @Fallback("counts")
        public void countsGuarded() {
        }

        @Fallback("namesMono")
        public void namesMonoGuarded() {
        }

        @Fallback("nameList")
        public void nameListGuarded() {
        }

        @Fallback("rawMono")
        public void rawMonoGuarded() {
        }

        @Fallback("anyMono")
        public void anyMonoGuarded() {
        }

        Mono<Integer> countMono() {
            return Mono.just(42);
        }

        List<Integer> counts() {
            return List.of(42);
        }

        List<String> nameList() {
            return List.of("b");
        }

        Mono<List<String>> namesMono() {
            return Mono.just(List.of("b"));
        }

        <T> Mono<T> anyMono() {
            return Mono.error(new IllegalStateException("unavailable"));
        }

        @SuppressWarnings("rawtypes")
        Mono rawMono() {
            return Mono.just(List.of("b"));
        }

    }

}
