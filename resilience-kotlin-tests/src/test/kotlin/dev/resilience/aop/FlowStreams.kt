package dev.resilience.aop

import dev.resilience.annotation.Bulkhead
import dev.resilience.annotation.Fallback
import dev.resilience.annotation.RateLimited
import dev.resilience.annotation.Retryable
import java.io.IOException
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.channels.awaitClose
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.FlowCollector
import kotlinx.coroutines.flow.callbackFlow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.flowOn
import org.springframework.stereotype.Component

/**
 * Functions returning a `Flow` whose n-th invocation and collection do what the test
 * scripted, counting invocations, collections, the collections that ended (by their
 * `finally`) and the elements emitted.
 */
@Component
class FlowStreams {

    private val invocations = AtomicInteger()

    private val collections = AtomicInteger()

    private val ended = AtomicInteger()

    private val emitted = AtomicInteger()

    private val fallbacks = AtomicInteger()

    @Volatile
    var invoked: (invocation: Int) -> Unit = {}

    @Volatile
    var script: suspend FlowCollector<String>.(collection: Int) -> Unit = { emit("ok") }

    @Volatile
    var fallbackScript: suspend FlowCollector<String>.() -> Unit = { emit("fallback") }

    fun reset() {
        invocations.set(0)
        collections.set(0)
        ended.set(0)
        emitted.set(0)
        fallbacks.set(0)
        invoked = {}
        script = { emit("ok") }
        fallbackScript = { emit("fallback") }
    }

    fun invocations(): Int = invocations.get()

    fun collections(): Int = collections.get()

    fun ended(): Int = ended.get()

    fun emitted(): Int = emitted.get()

    fun fallbacks(): Int = fallbacks.get()

    private fun scripted(): Flow<String> {
        invoked(invocations.incrementAndGet())
        return flow {
            val collection = collections.incrementAndGet()
            val counting = FlowCollector<String> { value ->
                emitted.incrementAndGet()
                emit(value)
            }
            try {
                counting.script(collection)
            }
            finally {
                ended.incrementAndGet()
            }
        }
    }

    @Retryable(value = "streams-retried", maxAttempts = 3, delay = "100ms", multiplier = 1.0)
    fun retried(): Flow<String> = scripted()

    @Retryable(value = "streams-suspend", maxAttempts = 3, delay = "100ms", multiplier = 1.0)
    suspend fun suspendRetried(): Flow<String> = scripted()

    @Retryable(value = "streams-once", maxAttempts = 1)
    fun once(symbol: String): Flow<String> = scripted()

    @Retryable(value = "streams-io", maxAttempts = 3, delay = "100ms", multiplier = 1.0)
    fun onIo(): Flow<String> = scripted().flowOn(Dispatchers.IO)

    @Retryable(value = "streams-callback", maxAttempts = 1)
    fun callback(): Flow<String> = callbackFlow {
        collections.incrementAndGet()
        trySend("first")
        trySend("second")
        awaitClose { ended.incrementAndGet() }
    }

    @Retryable(value = "streams-fallback", maxAttempts = 1)
    @Fallback("fallbackFlow")
    fun withFallback(symbol: String): Flow<String> = scripted()

    @Suppress("unused")
    private fun fallbackFlow(symbol: String, failure: IOException): Flow<String> = flow {
        fallbacks.incrementAndGet()
        try {
            fallbackScript()
        }
        finally {
            ended.incrementAndGet()
        }
    }

    @Retryable(value = "streams-queued", maxAttempts = 1)
    @Bulkhead(value = "streams-queued", maxConcurrentCalls = 1, maxWait = "10s")
    fun queued(): Flow<String> = scripted()

    @Retryable(value = "streams-slow-start", maxAttempts = 1)
    suspend fun slowStart(): Flow<String> {
        invocations.incrementAndGet()
        try {
            awaitCancellation()
        }
        finally {
            ended.incrementAndGet()
        }
    }

    @Retryable(value = "streams-any-fallback", maxAttempts = 1)
    @Fallback("anyFailure")
    fun withAnyFallback(symbol: String): Flow<String> = scripted()

    @Suppress("unused")
    private fun anyFailure(symbol: String, failure: Throwable): String = "fallback after ${failure.javaClass.simpleName}"

    @Retryable(value = "streams-judged", maxAttempts = 2, delay = "100ms", retryOnResult = "#result == 'stale'")
    @Bulkhead(value = "streams-judged", maxConcurrentCalls = 1, maxWait = "0ms")
    fun judged(): Flow<String> = scripted()

    @Retryable(value = "streams-rated", maxAttempts = 1)
    @RateLimited(value = "streams-rated", limit = 1, period = "10s", timeout = "30s")
    fun rated(): Flow<String> = scripted()

}
