package dev.resilience.aop;

import java.io.IOException;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.InvalidResiliencePolicyException;
import dev.resilience.registry.ResilienceRegistry;
import kotlin.coroutines.Continuation;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The start fails, with a failure analysis, for an annotated method the proxy cannot
 * protect: one it cannot intercept, or one whose return type hands its outcome back after
 * the call. Longer than 400 lines because each refused return type and proxy kind has its
 * own bean and message to check.
 */
class ProtectableMethodsTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class);

    @Test
    void retryableMethodReturningAPlainFutureFailsTheStart() {
        this.contextRunner.withBean("reports", FutureReports.class)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("Invalid resilience setting of bean 'reports', method FutureReports#render:")
                .contains("Setting: return type")
                .contains("Value: \"java.util.concurrent.Future<java.lang.String>\"")
                .contains("Reason: a Future that is not a CompletionStage")
                .contains("Action: Return CompletableFuture or CompletionStage"));
    }

    @Test
    void breakerGuardedMethodReturningAFutureTaskFailsTheStart() {
        this.contextRunner.withBean("reports", FutureTaskReports.class)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("method FutureTaskReports#render:")
                .contains("Value: \"java.util.concurrent.FutureTask<java.lang.String>\""));
    }

    @Test
    void retryableMethodReturningAPublisherFailsTheStart() {
        this.contextRunner.withBean("quotes", PublisherQuotes.class)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("Invalid resilience setting of bean 'quotes', method PublisherQuotes#quotes:")
                .contains("Setting: return type")
                .contains("Value: \"org.reactivestreams.Publisher<java.lang.String>\"")
                .contains("Reason: reactive types other than Mono and Flux are not supported yet")
                .contains("Action: Return Mono or Flux (Flux.from(publisher) gives one), CompletableFuture or "
                        + "CompletionStage"));
    }

    @Test
    void retryableMethodReturningAMonoStarts() {
        this.contextRunner.withBean("quotes", MonoQuotes.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(MonoQuotes.class).quote().block()).isEqualTo("42");
        });
    }

    @Test
    void idempotentMethodReturningAMonoStartsAndReplaysItsValue() {
        this.contextRunner.withBean("payments", IdempotentMonoPayments.class).run((context) -> {
            assertThat(context).hasNotFailed();
            IdempotentMonoPayments payments = context.getBean(IdempotentMonoPayments.class);
            assertThat(payments.pay("order-1").block()).isEqualTo("order-1 paid 1");
            assertThat(payments.pay("order-1").block()).isEqualTo("order-1 paid 1");
        });
    }

    @Test
    void fallbackOfAMonoMethodReturningNeitherAMonoNorItsValueFailsTheStart() {
        this.contextRunner.withBean("quotes", MismatchedMonoFallback.class)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("method MismatchedMonoFallback#quote:")
                .contains("Setting: @Fallback(\"count\")")
                .contains("Reason: it returns java.lang.Integer, which is neither a Mono nor assignable to "
                        + "java.lang.String, the value of reactor.core.publisher.Mono<java.lang.String>")
                .contains("Action: Make 'count' return Mono<String> or String."));
    }

    @Test
    void lastGoodValueOfAMonoKeptPerCallerStarts() {
        this.contextRunner.withBean("quotes", LastGoodMonoQuotes.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(LastGoodMonoQuotes.class).quote().block()).isEqualTo("42");
        });
    }

    @Test
    void methodReturningAMonoIsRefusedWhenTheApplicationsClassLoaderHasNoReactor() throws NoSuchMethodException {
        Method quote = MonoQuotes.class.getMethod("quote");

        assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> ProtectableMethods.requireSupportedReturnType(quote, "quotes",
                    new FilteredClassLoader("reactor.")))
            .satisfies((ex) -> assertThat(describe(ex))
                .contains("Reason: a Mono is protected only when Reactor is on the application's class path")
                .contains("Action: Add io.projectreactor:reactor-core"));
    }

    @Test
    void withoutReactorTheAutoConfigurationStartsAndProtectsOtherMethods() {
        this.contextRunner.withClassLoader(new FilteredClassLoader("reactor.", "org.reactivestreams."))
            .withBean("quotes", ReactorFreeQuotes.class)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                ReactorFreeQuotes quotes = context.getBean(ReactorFreeQuotes.class);
                assertThat(quotes.quote()).isEqualTo("cached");
                assertThat(quotes.stage()).isCompletedWithValue("42");
                assertThat(quotes.attempts()).isEqualTo(3);
            });
    }

    @Test
    void kotlinSuspendFunctionWithoutKotlinxCoroutinesReactorFailsTheStart() {
        this.contextRunner.withBean("quotes", SuspendingQuotes.class)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("Invalid resilience setting of bean 'quotes', method SuspendingQuotes#quote:")
                .contains("Setting: suspend")
                .contains("Value: \"suspend fun quote\"")
                .contains("Reason: Spring's proxy awaits a suspend function as a Mono only when "
                        + "kotlinx-coroutines-reactor is on the class path, and it is not")
                .contains("Action: Add org.jetbrains.kotlinx:kotlinx-coroutines-reactor"));
    }

    @Test
    void completionStageSubtypeOtherThanCompletableFutureFailsTheStart() {
        this.contextRunner.withBean("quotes", OwnStageQuotes.class)
            .run((context) -> assertThat(describe(context.getStartupFailure())).contains("method OwnStageQuotes#quote:")
                .contains("Value: \"dev.resilience.aop.ProtectableMethodsTests$QuoteFuture\"")
                .contains("Reason: only CompletionStage and CompletableFuture are supported"));
    }

    @Test
    void retryableOnAPrivateMethodFailsTheStart() {
        this.contextRunner.withBean("payments", PrivateRetryable.class)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("Invalid resilience setting of bean 'payments', method PrivateRetryable#pay:")
                .contains("Setting: @Retryable")
                .contains("Value: \"private String pay(String)\"")
                .contains("Reason: the Spring proxy cannot intercept a private method")
                .contains("Action: Make 'pay' public, protected or package-private"));
    }

    @Test
    void circuitGuardedOnAFinalMethodFailsTheStart() {
        this.contextRunner.withBean("payments", FinalGuarded.class)
            .run((context) -> assertThat(describe(context.getStartupFailure())).contains("method FinalGuarded#pay:")
                .contains("Setting: @CircuitGuarded")
                .contains("Value: \"public final String pay(String)\"")
                .contains("Reason: the Spring proxy cannot intercept a final method")
                .contains("Action: Remove final from 'pay'"));
    }

    @Test
    void idempotentOnAStaticMethodFailsTheStart() {
        this.contextRunner.withBean("payments", StaticIdempotent.class)
            .run((context) -> assertThat(describe(context.getStartupFailure())).contains("method StaticIdempotent#pay:")
                .contains("Setting: @Idempotent")
                .contains("Value: \"public static String pay(String)\"")
                .contains("Reason: the Spring proxy cannot intercept a static method")
                .contains("Action: Make 'pay' an instance method"));
    }

    @Test
    void privateFallbackMethodIsFine() {
        this.contextRunner.withBean("payments", PrivateFallback.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(PrivateFallback.class).pay("o-1")).isEqualTo("later:o-1");
        });
    }

    @Test
    void classLevelAnnotationLeavesPrivateFinalAndStaticMethodsUnguardedWithoutFailing() {
        this.contextRunner.withBean("payments", ClassLevelWithUnguardable.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(ResilienceRegistry.class).retryPolicies())
                .containsOnlyKeys("ClassLevelWithUnguardable#pay");
        });
    }

    private static String describe(Throwable failure) {
        assertThat(failure).as("start failure").isNotNull();
        return FailureAnalyses.describe(failure);
    }

    static class FutureReports {

        @Retryable
        public Future<String> render() {
            return CompletableFuture.completedFuture("report");
        }

    }

    static class FutureTaskReports {

        @CircuitGuarded
        public FutureTask<String> render() {
            return new FutureTask<>(() -> "report");
        }

    }

    static class MonoQuotes {

        @Retryable
        public Mono<String> quote() {
            return Mono.just("42");
        }

    }

    static class MismatchedMonoFallback {

        @Fallback("count")
        public Mono<String> quote() {
            return Mono.just("42");
        }

        Integer count() {
            return 42;
        }

    }

    static class LastGoodMonoQuotes {

        @Fallback(lastGood = "1h")
        public Mono<String> quote() {
            return Mono.just("42");
        }

    }

    static class PublisherQuotes {

        @Retryable
        public Publisher<String> quotes() {
            return Flux.just("42");
        }

    }

    static class IdempotentMonoPayments {

        private final AtomicInteger payments = new AtomicInteger();

        @Idempotent(key = "#orderId")
        public Mono<String> pay(String orderId) {
            return Mono.fromCallable(() -> orderId + " paid " + this.payments.incrementAndGet());
        }

    }

    /**
     * Public, so that a proxy defined by another class loader may extend it.
     */
    public static class ReactorFreeQuotes {

        private final AtomicInteger attempts = new AtomicInteger();

        /**
         * Fails, and falls back.
         * @return the fallback's value
         */
        @Fallback("cached")
        @Retryable(maxAttempts = 1)
        public String quote() {
            this.attempts.incrementAndGet();
            throw new IllegalStateException("oracle down");
        }

        private String cached() {
            return "cached";
        }

        /**
         * Fails once, then answers.
         * @return the stage of the answer
         */
        @Retryable(maxAttempts = 2, delay = "0ms")
        public CompletableFuture<String> stage() {
            return (this.attempts.incrementAndGet() == 2) ? CompletableFuture.failedFuture(new IOException("down"))
                    : CompletableFuture.completedFuture("42");
        }

        /**
         * Returns how many attempts ran.
         * @return the count
         */
        public int attempts() {
            return this.attempts.get();
        }

    }

    static class SuspendingQuotes {

        @Retryable
        public Object quote(String symbol, Continuation<? super String> continuation) {
            return symbol;
        }

    }

    static class QuoteFuture extends CompletableFuture<String> {

    }

    static class OwnStageQuotes {

        @Retryable
        public QuoteFuture quote() {
            return new QuoteFuture();
        }

    }

    static class PrivateRetryable {

        public String payTwice(String orderId) {
            return pay(orderId) + pay(orderId);
        }

        @Retryable
        private String pay(String orderId) {
            return orderId;
        }

    }

    static class FinalGuarded {

        @CircuitGuarded
        public final String pay(String orderId) {
            return orderId;
        }

    }

    static class StaticIdempotent {

        @Idempotent(key = "#orderId")
        public static String pay(String orderId) {
            return orderId;
        }

    }

    static class PrivateFallback {

        @Fallback("later")
        @Retryable(maxAttempts = 1)
        public String pay(String orderId) {
            throw new IllegalStateException("gateway down");
        }

        private String later(String orderId) {
            return "later:" + orderId;
        }

    }

    @Retryable
    static class ClassLevelWithUnguardable {

        public String pay(String orderId) {
            return audit(orderId) + format(orderId);
        }

        public final String receipt(String orderId) {
            return orderId;
        }

        public static String format(String orderId) {
            return orderId;
        }

        private String audit(String orderId) {
            return orderId;
        }

    }

}
