package dev.resilience.aop;

import java.lang.reflect.Method;

import dev.resilience.annotation.Fallback;
import dev.resilience.registry.InvalidResiliencePolicyException;
import dev.resilience.core.ExecutionResult;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The start checks of the fallbacks of a method returning
 * {@code Mono<ExecutionResult<T>>}: a fallback returns a {@code Mono} of the same
 * {@code ExecutionResult}, or that {@code ExecutionResult}, generics included.
 */
class FallbackMethodsExecutionResultTests {

    @Test
    void fallbacksOfTheResultOrAMonoOfItAreAccepted() {
        assertThatNoException().isThrownBy(() -> resolve("resultMono"));
        assertThatNoException().isThrownBy(() -> resolve("plainResult"));
    }

    @Test
    void fallbackMonoOfTheBareValueIsRefused() {
        assertThatExceptionOfType(InvalidResiliencePolicyException.class).isThrownBy(() -> resolve("valueMono"))
            .satisfies((ex) -> assertThat(ex.getMessage())
                .contains("it returns reactor.core.publisher.Mono<java.lang.String>, whose value is not assignable to "
                        + "dev.resilience.core.ExecutionResult<java.lang.String>"));
    }

    @Test
    void fallbackOfTheBareValueIsRefused() {
        assertThatExceptionOfType(InvalidResiliencePolicyException.class).isThrownBy(() -> resolve("plainValue"))
            .satisfies((ex) -> assertThat(ex.getMessage())
                .contains("it returns java.lang.String, which is neither a Mono nor assignable to "
                        + "dev.resilience.core.ExecutionResult<java.lang.String>"));
    }

    @Test
    void fallbackMonoOfAResultOfAnotherValueTypeIsRefused() {
        assertThatExceptionOfType(InvalidResiliencePolicyException.class).isThrownBy(() -> resolve("countResultMono"))
            .satisfies((ex) -> assertThat(ex.getMessage()).contains(
                    "it returns reactor.core.publisher.Mono<dev.resilience.core.ExecutionResult<java.lang.Integer>>"));
    }

    @Test
    void onlyAMonoOfAnExecutionResultEmitsExecutionResults() throws NoSuchMethodException {
        assertThat(ReturnKind.emitsExecutionResult(Quotes.class.getMethod("quote"))).isTrue();
        assertThat(ReturnKind.emitsExecutionResult(Quotes.class.getMethod("plainQuote"))).isFalse();
        assertThat(ReturnKind.emitsExecutionResult(Quotes.class.getMethod("syncQuote"))).isFalse();
    }

    private static void resolve(String fallback) throws NoSuchMethodException {
        Method guarded = Quotes.class.getMethod("quote");
        Fallback annotation = Quotes.class.getMethod(fallback + "Guarded").getAnnotation(Fallback.class);
        FallbackMethods.resolve(guarded, Quotes.class, annotation, "quotes");
    }

    static class Quotes {

        public Mono<ExecutionResult<String>> quote() {
            return Mono.just(ExecutionResult.success("42"));
        }

        public Mono<String> plainQuote() {
            return Mono.just("42");
        }

        public ExecutionResult<String> syncQuote() {
            return ExecutionResult.success("42");
        }

        @Fallback("resultMono")
        public void resultMonoGuarded() {
        }

        @Fallback("plainResult")
        public void plainResultGuarded() {
        }

        @Fallback("valueMono")
        public void valueMonoGuarded() {
        }

        @Fallback("plainValue")
        public void plainValueGuarded() {
        }

        @Fallback("countResultMono")
        public void countResultMonoGuarded() {
        }

        Mono<ExecutionResult<String>> resultMono() {
            return Mono.just(ExecutionResult.success("41"));
        }

        ExecutionResult<String> plainResult() {
            return ExecutionResult.success("40");
        }

        Mono<String> valueMono() {
            return Mono.just("39");
        }

        String plainValue() {
            return "38";
        }

        Mono<ExecutionResult<Integer>> countResultMono() {
            return Mono.just(ExecutionResult.success(37));
        }

    }

}
