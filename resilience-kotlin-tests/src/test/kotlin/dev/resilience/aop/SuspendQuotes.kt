package dev.resilience.aop

import dev.resilience.annotation.Bulkhead
import dev.resilience.annotation.CircuitGuarded
import dev.resilience.annotation.Fallback
import dev.resilience.annotation.Hedged
import dev.resilience.annotation.Idempotent
import dev.resilience.annotation.RateLimited
import dev.resilience.annotation.Retryable
import dev.resilience.annotation.TimeLimited
import java.io.IOException
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CoroutineName
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.reactor.ReactorContext
import kotlinx.coroutines.yield
import org.springframework.stereotype.Component
import reactor.core.publisher.Mono
import kotlin.coroutines.cancellation.CancellationException

/**
 * Suspend functions whose n-th invocation does what the test scripted (`ok` when nothing
 * is), counting invocations, cancelled invocations and the caller's coroutine name each
 * one ran with.
 */
@Component
class SuspendQuotes {

    private val invocations = AtomicInteger()

    private val cancellations = AtomicInteger()

    /** The coroutine name each invocation and fallback ran with, in order. */
    val coroutineNames: MutableList<String> = CopyOnWriteArrayList()

    @Volatile
    var script: suspend (invocation: Int) -> String = { "ok" }

    fun reset() {
        invocations.set(0)
        cancellations.set(0)
        coroutineNames.clear()
        script = { "ok" }
    }

    fun invocations(): Int = invocations.get()

    fun cancellations(): Int = cancellations.get()

    private suspend fun scripted(): String {
        val invocation = invocations.incrementAndGet()
        coroutineNames += coroutineName()
        try {
            return script(invocation)
        } catch (ex: CancellationException) {
            cancellations.incrementAndGet()
            throw ex
        }
    }

    private suspend fun coroutineName() = currentCoroutineContext()[CoroutineName]?.name ?: "none"

    @Retryable(value = "suspend-quote", maxAttempts = 3, delay = "100ms", multiplier = 2.0)
    suspend fun quote(symbol: String): String = "$symbol ${scripted()}"

    @Retryable(
        value = "suspend-fresh",
        maxAttempts = 2,
        delay = "100ms",
        multiplier = 1.0,
        retryOnResult = "#result == #symbol + ' stale'",
    )
    suspend fun fresh(symbol: String): String = "$symbol ${scripted()}"

    @Retryable(value = "suspend-guarded", maxAttempts = 1)
    @CircuitGuarded("suspend-breaker")
    suspend fun guarded(): String = scripted()

    @Retryable(value = "suspend-limited", maxAttempts = 3, delay = "1s", multiplier = 1.0)
    @Bulkhead(value = "suspend-bulkhead", maxConcurrentCalls = 1, maxWait = "0ms")
    suspend fun limited(): String = scripted()

    @Retryable(value = "suspend-time", maxAttempts = 1)
    @TimeLimited(value = "suspend-time", timeout = "1s")
    suspend fun bounded(): String = scripted()

    @Retryable(value = "suspend-rated", maxAttempts = 1)
    @RateLimited(value = "suspend-rated", limit = 1, period = "1s", timeout = "5s")
    suspend fun rated(): String = scripted()

    @Retryable(value = "suspend-hedged", maxAttempts = 1)
    @Hedged(value = "suspend-hedged", delay = "100ms", maxHedges = 1)
    suspend fun hedged(): String = scripted()

    @Retryable(value = "suspend-fallback", maxAttempts = 2, delay = "100ms", multiplier = 1.0)
    @Fallback("cachedQuote")
    suspend fun withFallback(symbol: String): String = scripted()

    @Suppress("unused")
    private suspend fun cachedQuote(symbol: String, failure: IOException): String {
        yield()
        val name = coroutineName()
        coroutineNames += name
        return "cached $symbol for $name after ${failure.message}"
    }

    @Retryable(value = "suspend-tenant", maxAttempts = 1)
    @Fallback("tenantOfSubscriber")
    suspend fun tenant(): String {
        val tenant = currentCoroutineContext()[ReactorContext]?.context?.getOrDefault("tenant", "nobody")
        throw IOException("no quote for $tenant")
    }

    @Suppress("unused")
    private fun tenantOfSubscriber(failure: IOException): Mono<String> =
        Mono.deferContextual { Mono.just("${failure.message}, fallback for ${it.getOrDefault("tenant", "nobody")}") }

    @Idempotent(name = "suspend-orders", key = "#requestId")
    suspend fun order(requestId: String, symbol: String): String = "$symbol ${scripted()}"

    @Idempotent(name = "suspend-root-orders", key = "#root[0]", fingerprint = "#root")
    suspend fun orderByRoot(requestId: String, symbol: String): String = "$symbol ${scripted()}"

    @Retryable(value = "suspend-fallbacks", maxAttempts = 1)
    @Fallback("failingQuote", "plainQuote")
    suspend fun withFallbacks(symbol: String): String = scripted()

    @Suppress("UNUSED_PARAMETER", "unused")
    private suspend fun failingQuote(symbol: String): String = throw IOException("cache down")

    @Suppress("unused")
    private fun plainQuote(symbol: String): String = "plain $symbol"

}
