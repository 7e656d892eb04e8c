package dev.resilience.aop

import dev.resilience.annotation.Fallback
import dev.resilience.annotation.Idempotent
import dev.resilience.annotation.Retryable
import dev.resilience.autoconfigure.ResilienceAutoConfiguration
import dev.resilience.core.ExecutionResult
import dev.resilience.core.time.VirtualTimeSource
import dev.resilience.registry.InvalidResiliencePolicyException
import java.io.IOException
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import org.springframework.stereotype.Component
import reactor.core.publisher.Mono

/**
 * What a `suspend` function cannot be: each fails the start with the setting, the reason
 * and the fix, instead of running unprotected.
 */
class SuspendFunctionStartFailuresTests {

    private val contextRunner = ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration::class.java))
        .withBean(VirtualTimeSource::class.java)

    @Test
    fun `suspend function returning a Mono fails the start`() {
        assertThat(startFailure<MonoQuotes>()).satisfies({
            assertThat(it.value).isEqualTo("reactor.core.publisher.Mono<java.lang.String>")
            assertThat(it.reason).contains("a Mono as that value hands its outcome back after the call has ended")
        })
    }

    @Test
    fun `suspend function returning an ExecutionResult fails the start`() {
        assertThat(startFailure<AccountQuotes>().reason)
            .startsWith("an ExecutionResult, the account of a call, is returned only by a function that is not suspend")
    }

    @Test
    fun `suspend fallback of a function that is not suspend fails the start`() {
        assertThat(startFailure<BlockingQuotes>()).satisfies({
            assertThat(it.setting).isEqualTo("@Fallback(\"cachedQuote\")")
            assertThat(it.reason).isEqualTo("it is a suspend function, which only a suspend function's call can await")
        })
    }

    @Test
    fun `fallback of another value type fails the start naming both types`() {
        assertThat(startFailure<MistypedQuotes>()).satisfies({
            assertThat(it.setting).isEqualTo("@Fallback(\"cachedPrice\")")
            assertThat(it.value).isEqualTo("suspend Integer cachedPrice(String)")
            assertThat(it.reason).isEqualTo(
                "it returns java.lang.Integer, which is neither a Mono nor assignable to java.lang.String, " +
                    "the value of java.lang.String",
            )
        })
    }

    @Test
    fun `fallback that may return null for a function whose value is not nullable fails the start`() {
        assertThat(startFailure<NullableFallbackQuotes>()).satisfies({
            assertThat(it.setting).isEqualTo("@Fallback(\"cachedQuote\")")
            assertThat(it.reason).isEqualTo(
                "it may return null (its Kotlin return type is nullable), and the value of the function is not: " +
                    "a null would reach the caller as a value that its type says is never null",
            )
            assertThat(it.fix).isEqualTo("Make 'cachedQuote' return a value that is not nullable, or make the " +
                "function's return type nullable.")
        })
    }

    @Test
    fun `suspend fallback that may return null for a function whose value is not nullable fails the start`() {
        assertThat(startFailure<NullableSuspendFallbackQuotes>().reason)
            .startsWith("it may return null (its Kotlin return type is nullable), and the value of the function is not")
    }

    @Test
    fun `nullable fallback of a Kotlin function that is not suspend fails the start alike`() {
        assertThat(startFailure<NullableBlockingFallbackQuotes>().reason)
            .startsWith("it may return null (its Kotlin return type is nullable), and the value of the function is not")
    }

    @Test
    fun `nullable function with a nullable fallback starts`() {
        contextRunner.withBean(NullableQuotes::class.java).run { assertThat(it).hasNotFailed() }
    }

    @Test
    fun `fallback whose parameters do not fit is named as the Kotlin code declares it`() {
        assertThat(startFailure<MisfitQuotes>()).satisfies({
            assertThat(it.value).isEqualTo("suspend String cachedQuote(IOException, String)")
            assertThat(it.fix).isEqualTo("Declare String cachedQuote(String), optionally with a trailing Throwable parameter.")
        })
    }

    @Test
    fun `suspend function that is not open fails the start saying to make it open`() {
        assertThat(startFailure<ClosedQuotes>()).satisfies({
            assertThat(it.value).isEqualTo("public final suspend String quote(String)")
            assertThat(it.reason).isEqualTo("the Spring proxy cannot intercept a final method, so @Retryable would never apply to it")
            assertThat(it.fix).isEqualTo(
                "Declare 'quote' open (a Kotlin function is final unless it is open; the kotlin-spring compiler " +
                    "plugin opens the members of classes annotated @Component, @Service and the like), or remove " +
                    "@Retryable.",
            )
        })
    }

    @Test
    fun `key expression naming the position of the Continuation fails the start`() {
        assertThat(startFailure<ContinuationKeyQuotes>()).satisfies({
            assertThat(it.setting).isEqualTo("@Idempotent(key)")
            assertThat(it.value).isEqualTo("#p1")
            assertThat(it.reason).isEqualTo("it refers to #p1, which is not a parameter of the method")
            assertThat(it.fix).isEqualTo("Refer to a parameter by name or position: #requestId, #p0, #a0.")
        })
    }

    @Test
    fun `result expression naming the position of the Continuation fails the start`() {
        assertThat(startFailure<ContinuationResultQuotes>()).satisfies({
            assertThat(it.setting).isEqualTo("@Retryable(retryOnResult)")
            assertThat(it.reason).isEqualTo("it refers to #a1, which is neither #result nor a parameter of the method")
        })
    }

    @Test
    fun `suspend function with a plain and a suspend fallback of its value type starts`() {
        contextRunner.withBean(FittingQuotes::class.java).run { assertThat(it).hasNotFailed() }
    }

    private inline fun <reified T : Any> startFailure(): InvalidResiliencePolicyException {
        var failure: Throwable? = null
        contextRunner.withBean(T::class.java).run { failure = it.startupFailure }
        var cause = failure
        while (cause != null && cause !is InvalidResiliencePolicyException) {
            cause = cause.cause
        }
        assertThat(cause).`as`("start failure of %s", failure).isNotNull()
        return cause as InvalidResiliencePolicyException
    }

    @Component
    class MonoQuotes {
        @Retryable
        suspend fun quote(): Mono<String> = Mono.just("ok")
    }

    @Component
    class AccountQuotes {
        @Retryable
        suspend fun quote(): ExecutionResult<String> = throw UnsupportedOperationException()
    }

    @Component
    class BlockingQuotes {
        @Retryable
        @Fallback("cachedQuote")
        fun quote(symbol: String): String = symbol

        @Suppress("unused")
        suspend fun cachedQuote(symbol: String): String = symbol
    }

    @Component
    class MistypedQuotes {
        @Retryable
        @Fallback("cachedPrice")
        suspend fun quote(symbol: String): String = symbol

        @Suppress("unused")
        suspend fun cachedPrice(symbol: String): Int = symbol.length
    }

    @Component
    class MisfitQuotes {
        @Retryable
        @Fallback("cachedQuote")
        suspend fun quote(symbol: String): String = symbol

        @Suppress("unused")
        suspend fun cachedQuote(failure: IOException, symbol: String): String = symbol
    }

    @Component
    open class ClosedQuotes {
        @Retryable
        final suspend fun quote(symbol: String): String = symbol
    }

    @Component
    class ContinuationKeyQuotes {
        @Idempotent(key = "#p1")
        suspend fun order(requestId: String): String = requestId
    }

    @Component
    class ContinuationResultQuotes {
        @Retryable(retryOnResult = "#a1 == null")
        suspend fun quote(symbol: String): String = symbol
    }

    @Component
    class NullableFallbackQuotes {
        @Retryable
        @Fallback("cachedQuote")
        suspend fun quote(symbol: String): String = symbol

        @Suppress("unused", "UNUSED_PARAMETER")
        fun cachedQuote(symbol: String): String? = null
    }

    @Component
    class NullableSuspendFallbackQuotes {
        @Retryable
        @Fallback("cachedQuote")
        suspend fun quote(symbol: String): String = symbol

        @Suppress("unused", "UNUSED_PARAMETER")
        suspend fun cachedQuote(symbol: String, failure: Throwable): String? = null
    }

    @Component
    class NullableBlockingFallbackQuotes {
        @Retryable
        @Fallback("cachedQuote")
        fun quote(symbol: String): String = symbol

        @Suppress("unused", "UNUSED_PARAMETER")
        fun cachedQuote(symbol: String): String? = null
    }

    @Component
    class NullableQuotes {
        @Retryable
        @Fallback("cachedQuote", "plainQuote")
        suspend fun quote(symbol: String): String? = symbol

        @Suppress("unused", "UNUSED_PARAMETER")
        suspend fun cachedQuote(symbol: String, failure: Throwable): String? = null

        @Suppress("unused")
        fun plainQuote(symbol: String): String = symbol
    }

    @Component
    class FittingQuotes {
        @Retryable
        @Fallback("cachedQuote", "plainQuote", "monoQuote")
        suspend fun quote(symbol: String): String = symbol

        @Suppress("unused")
        suspend fun cachedQuote(symbol: String, failure: Throwable): String = symbol

        @Suppress("unused")
        fun plainQuote(symbol: String): String = symbol

        @Suppress("unused")
        fun monoQuote(symbol: String): Mono<String> = Mono.just(symbol)
    }

}
