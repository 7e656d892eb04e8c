package dev.resilience.aop

import dev.resilience.annotation.Bulkhead
import dev.resilience.annotation.CircuitGuarded
import dev.resilience.annotation.Fallback
import dev.resilience.annotation.RateLimited
import dev.resilience.annotation.Retryable
import dev.resilience.annotation.TimeLimited
import java.io.IOException
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.FlowCollector
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.flowOf
import kotlinx.coroutines.reactor.ReactorContext
import org.springframework.stereotype.Component
import reactor.core.publisher.Flux
import kotlin.coroutines.cancellation.CancellationException

/**
 * Functions returning a `Flow`, plain and `suspend`, whose n-th collection does what the
 * test scripted (emits `ok` when nothing is), counting the functions' invocations, the
 * collections of the `Flow`s they return, the collections cancelled and the elements
 * emitted.
 */
@Component
class FlowQuotes {

    private val invocations = AtomicInteger()

    private val collections = AtomicInteger()

    private val cancellations = AtomicInteger()

    private val emitted = AtomicInteger()

    @Volatile
    var script: suspend FlowCollector<String>.(collection: Int) -> Unit = { emit("ok") }

    fun reset() {
        invocations.set(0)
        collections.set(0)
        cancellations.set(0)
        emitted.set(0)
        script = { emit("ok") }
    }

    fun invocations(): Int = invocations.get()

    fun collections(): Int = collections.get()

    fun cancellations(): Int = cancellations.get()

    fun emitted(): Int = emitted.get()

    private fun scripted(): Flow<String> {
        invocations.incrementAndGet()
        return flow {
            val collection = collections.incrementAndGet()
            val counting = FlowCollector<String> { value ->
                emitted.incrementAndGet()
                emit(value)
            }
            try {
                counting.script(collection)
            } catch (ex: CancellationException) {
                cancellations.incrementAndGet()
                throw ex
            }
        }
    }

    @Retryable(value = "flow-quotes", maxAttempts = 3, delay = "100ms", multiplier = 2.0)
    fun quotes(): Flow<String> = scripted()

    @Retryable(value = "flow-suspend", maxAttempts = 3, delay = "100ms", multiplier = 2.0)
    suspend fun suspendQuotes(): Flow<String> = scripted()

    @Retryable(value = "flow-once", maxAttempts = 3, delay = "100ms")
    fun once(): Flow<String> = scripted()

    @Retryable(
        value = "flow-fresh",
        maxAttempts = 2,
        delay = "100ms",
        multiplier = 1.0,
        retryOnResult = "#result == #symbol + ' stale'",
    )
    suspend fun fresh(symbol: String): Flow<String> = scripted()

    @Retryable(value = "flow-guarded", maxAttempts = 1)
    @CircuitGuarded("flow-breaker")
    fun guarded(): Flow<String> = scripted()

    @Retryable(value = "flow-limited", maxAttempts = 3, delay = "1s", multiplier = 1.0)
    @Bulkhead(value = "flow-bulkhead", maxConcurrentCalls = 1, maxWait = "0ms")
    fun limited(): Flow<String> = scripted()

    @Retryable(value = "flow-time", maxAttempts = 1)
    @TimeLimited(value = "flow-time", timeout = "1s")
    fun bounded(): Flow<String> = scripted()

    @Retryable(value = "flow-rated", maxAttempts = 1)
    @RateLimited(value = "flow-rated", limit = 1, period = "1s", timeout = "5s")
    suspend fun rated(): Flow<String> = scripted()

    @Retryable(value = "flow-flow-fallback", maxAttempts = 2, delay = "100ms", multiplier = 1.0)
    @Fallback("cachedFlow")
    fun withFlowFallback(symbol: String): Flow<String> = scripted()

    @Suppress("unused")
    private fun cachedFlow(symbol: String, failure: IOException): Flow<String> =
        flowOf("cached $symbol", "after ${failure.message}")

    @Retryable(value = "flow-fallbacks", maxAttempts = 1)
    @Fallback("failingFlux", "cachedList")
    suspend fun withFallbacks(symbol: String): Flow<String> = scripted()

    @Suppress("unused")
    private fun failingFlux(symbol: String): Flux<String> = Flux.error(IOException("cache of $symbol down"))

    @Suppress("unused")
    private fun cachedList(symbol: String): List<String> = listOf("$symbol 1", "$symbol 2")

    @Retryable(value = "flow-element-fallback", maxAttempts = 1)
    @Fallback("cachedElement")
    fun withElementFallback(): Flow<String> = scripted()

    @Suppress("unused")
    private fun cachedElement(): String = "one"

    @Retryable(value = "flow-tenant", maxAttempts = 1)
    @Fallback("fluxOfTenant")
    fun tenant(): Flow<String> = flow {
        val tenant = currentCoroutineContext()[ReactorContext]?.context?.getOrDefault("tenant", "nobody")
        throw IOException("no quote for $tenant")
    }

    @Suppress("unused")
    private fun fluxOfTenant(failure: IOException): Flux<String> =
        Flux.deferContextual { Flux.just("${failure.message}, fallback for ${it.getOrDefault("tenant", "nobody")}") }

}
