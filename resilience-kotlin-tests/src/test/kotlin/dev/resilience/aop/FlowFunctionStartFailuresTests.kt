package dev.resilience.aop

import dev.resilience.annotation.Fallback
import dev.resilience.annotation.Hedged
import dev.resilience.annotation.Idempotent
import dev.resilience.annotation.Retryable
import dev.resilience.autoconfigure.ResilienceAutoConfiguration
import dev.resilience.core.time.VirtualTimeSource
import dev.resilience.registry.InvalidResiliencePolicyException
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.flowOf
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.test.context.FilteredClassLoader
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import org.springframework.stereotype.Component
import reactor.core.publisher.Flux

/**
 * What a function returning a `Flow` cannot be: each fails the start with the setting,
 * the reason and the fix, as for a method returning `Flux`, instead of running
 * unprotected.
 */
class FlowFunctionStartFailuresTests {

    private val contextRunner = ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration::class.java))
        .withBean(VirtualTimeSource::class.java)

    @Test
    fun `idempotent function returning a Flow fails the start`() {
        assertThat(startFailure<IdempotentFlows>()).satisfies({
            assertThat(it.setting).isEqualTo("@Idempotent")
            assertThat(it.value).isEqualTo("Flow quotes")
            assertThat(it.reason).isEqualTo(
                "a Flow cannot be stored as one value to replay: its elements reach the collector as they come, " +
                    "and a replay would need all of them",
            )
            assertThat(it.fix).isEqualTo(
                "Return the collected elements from an idempotent suspend function (Flow#toList() gives a List<T>), " +
                    "or remove @Idempotent.",
            )
        })
    }

    @Test
    fun `hedged suspend function returning a Flow fails the start`() {
        assertThat(startFailure<HedgedFlows>()).satisfies({
            assertThat(it.setting).isEqualTo("@Hedged")
            assertThat(it.value).isEqualTo("suspend Flow quotes")
            assertThat(it.reason).startsWith("a Flow cannot be hedged: its elements reach the collector as they come")
        })
    }

    @Test
    fun `last good value of a function returning a Flow fails the start`() {
        assertThat(startFailure<LastGoodFlows>()).satisfies({
            assertThat(it.setting).isEqualTo("@Fallback(lastGood)")
            assertThat(it.reason).isEqualTo(
                "a last good value is one value, while a Flow is a stream: only its first element would be kept " +
                    "and served",
            )
            assertThat(it.fix).isEqualTo(
                "Name fallback methods in @Fallback(value) instead of lastGood (one may return Flow<T>, Flux<T>, T " +
                    "or List<T>).",
            )
        })
    }

    @Test
    fun `function returning a StateFlow fails the start`() {
        assertThat(startFailure<StateFlows>()).satisfies({
            assertThat(it.setting).isEqualTo("return type")
            assertThat(it.value).isEqualTo("kotlinx.coroutines.flow.StateFlow<java.lang.String>")
            assertThat(it.reason).isEqualTo(
                "the proxy hands back a Flow of its own, each collection of which is one call, and that Flow is " +
                    "no StateFlow",
            )
            assertThat(it.fix).isEqualTo(
                "Declare 'quotes' to return Flow<T>, or leave the StateFlow unannotated and protect the method " +
                    "that fills it.",
            )
        })
    }

    @Test
    fun `suspend function returning a StateFlow fails the start`() {
        assertThat(startFailure<SuspendStateFlows>().reason)
            .isEqualTo("the proxy hands back a Flow of its own, each collection of which is one call, and that Flow " +
                "is no StateFlow")
    }

    @Test
    fun `function returning a Flow without kotlinx-coroutines-reactor fails the start naming it`() {
        var failure: Throwable? = null
        contextRunner.withClassLoader(FilteredClassLoader("kotlinx.coroutines.reactor."))
            .withBean(FittingFlows::class.java)
            .run { failure = it.startupFailure }

        assertThat(policyFailure(failure)).satisfies({
            assertThat(it.setting).isEqualTo("return type")
            assertThat(it.reason).isEqualTo(
                "a Flow is protected only when kotlinx-coroutines-reactor is on the application's class path, and " +
                    "kotlinx.coroutines.reactor.ReactorFlowKt is not: the Flow goes through the engine as a Reactor " +
                    "Flux (asFlux, asFlow)",
            )
            assertThat(it.fix)
                .isEqualTo("Add org.jetbrains.kotlinx:kotlinx-coroutines-reactor to the application's dependencies.")
        })
    }

    @Test
    fun `fallback of another element type fails the start naming the forms that fit`() {
        assertThat(startFailure<MistypedFlows>()).satisfies({
            assertThat(it.setting).isEqualTo("@Fallback(\"counts\")")
            assertThat(it.reason).isEqualTo(
                "it returns kotlinx.coroutines.flow.Flow<java.lang.Integer>, whose elements are not assignable to " +
                    "java.lang.String, the element type of kotlinx.coroutines.flow.Flow<java.lang.String>",
            )
            assertThat(it.fix).isEqualTo("Make 'counts' return Flow<String>, Flux<String>, String or List<String>.")
        })
    }

    @Test
    fun `suspend fallback of a suspend function returning a Flow fails the start`() {
        assertThat(startFailure<SuspendFallbackFlows>()).satisfies({
            assertThat(it.setting).isEqualTo("@Fallback(\"cachedQuotes\")")
            assertThat(it.reason).isEqualTo(
                "it is a suspend function, while a fallback of a function returning Flow returns its elements " +
                    "without suspending",
            )
            assertThat(it.fix)
                .isEqualTo("Declare Flow cachedQuotes() without suspend (a flow { } builder may suspend as it emits).")
        })
    }

    @Test
    fun `functions returning a Flow with Flow, Flux, element and list fallbacks start`() {
        contextRunner.withBean(FittingFlows::class.java).run { assertThat(it).hasNotFailed() }
    }

    private inline fun <reified T : Any> startFailure(): InvalidResiliencePolicyException {
        var failure: Throwable? = null
        contextRunner.withBean(T::class.java).run { failure = it.startupFailure }
        return policyFailure(failure)
    }

    private fun policyFailure(failure: Throwable?): InvalidResiliencePolicyException {
        var cause = failure
        while (cause != null && cause !is InvalidResiliencePolicyException) {
            cause = cause.cause
        }
        assertThat(cause).`as`("start failure of %s", failure).isNotNull()
        return cause as InvalidResiliencePolicyException
    }

    @Component
    class IdempotentFlows {
        @Idempotent(key = "#requestId")
        fun quotes(requestId: String): Flow<String> = flowOf(requestId)
    }

    @Component
    class HedgedFlows {
        @Hedged(delay = "100ms")
        suspend fun quotes(): Flow<String> = flowOf("ok")
    }

    @Component
    class LastGoodFlows {
        @Retryable
        @Fallback(lastGood = "1h")
        fun quotes(): Flow<String> = flowOf("ok")
    }

    @Component
    class StateFlows {
        @Retryable
        fun quotes(): StateFlow<String> = MutableStateFlow("ok")
    }

    @Component
    class SuspendStateFlows {
        @Retryable
        suspend fun quotes(): StateFlow<String> = MutableStateFlow("ok")
    }

    @Component
    class MistypedFlows {
        @Retryable
        @Fallback("counts")
        fun quotes(): Flow<String> = flowOf("ok")

        @Suppress("unused")
        fun counts(): Flow<Int> = flowOf(1)
    }

    @Component
    class SuspendFallbackFlows {
        @Retryable
        @Fallback("cachedQuotes")
        suspend fun quotes(): Flow<String> = flowOf("ok")

        @Suppress("unused")
        suspend fun cachedQuotes(): Flow<String> = flowOf("cached")
    }

    @Component
    class FittingFlows {
        @Retryable
        @Fallback("cachedFlow", "cachedFlux", "cachedQuote", "cachedList")
        fun quotes(symbol: String): Flow<String> = flowOf(symbol)

        @Retryable
        @Fallback("cachedFlow", "cachedFlux", "cachedQuote", "cachedList")
        suspend fun suspendQuotes(symbol: String): Flow<String> = flowOf(symbol)

        @Suppress("unused")
        fun cachedFlow(symbol: String, failure: Throwable): Flow<String> = flowOf(symbol)

        @Suppress("unused")
        fun cachedFlux(symbol: String): Flux<String> = Flux.just(symbol)

        @Suppress("unused")
        fun cachedQuote(symbol: String): String = symbol

        @Suppress("unused")
        fun cachedList(symbol: String): List<String> = listOf(symbol)
    }

}
