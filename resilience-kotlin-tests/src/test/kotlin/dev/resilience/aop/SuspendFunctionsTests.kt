package dev.resilience.aop

import dev.resilience.core.AttemptTimeoutException
import dev.resilience.core.ExecutionListener
import dev.resilience.core.ExecutionResult
import dev.resilience.core.ExecutionStatus
import dev.resilience.core.bulkhead.BulkheadFullException
import dev.resilience.core.circuitbreaker.CallNotPermittedException
import dev.resilience.core.circuitbreaker.CircuitBreakerState
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException
import dev.resilience.core.time.VirtualTimeSource
import dev.resilience.registry.ResilienceRegistry
import java.io.IOException
import java.time.Duration
import java.util.concurrent.CancellationException
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.Executor
import kotlinx.coroutines.CoroutineName
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.launch
import kotlinx.coroutines.reactor.asCoroutineContext
import kotlinx.coroutines.test.TestScope
import kotlinx.coroutines.test.runCurrent
import kotlinx.coroutines.test.runTest
import kotlinx.coroutines.withContext
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import
import reactor.util.context.Context

/**
 * Kotlin `suspend` functions through the starter's proxy, on the engine's virtual clock
 * with an executor that runs each step on the thread that moves the clock, and in
 * `runTest`, whose dispatcher runs the functions' bodies when the test says
 * `runCurrent()`: each invocation of the function is one attempt, awaited by the caller's
 * coroutine without blocking it.
 */
@OptIn(ExperimentalCoroutinesApi::class)
@SpringBootTest(
    classes = [SuspendFunctionsTests.TestApplication::class],
    properties = [
        "resilience.retry.defaults.jitter=none",
        "resilience.retry.defaults.budget.enabled=false",
        "resilience.async.executor=callerRunsExecutor",
        "resilience.circuit-breaker.instances.suspend-breaker.minimum-calls=2",
        "resilience.circuit-breaker.instances.suspend-breaker.sliding-window-size=2",
        "resilience.circuit-breaker.instances.suspend-breaker.wait-in-open=1m",
    ],
)
class SuspendFunctionsTests @Autowired constructor(
    private val quotes: SuspendQuotes,
    private val clock: VirtualTimeSource,
    private val results: ResultRecorder,
    private val registry: ResilienceRegistry,
) {

    @BeforeEach
    fun reset() {
        quotes.reset()
        results.clear()
    }

    @Test
    fun `suspend function failing twice is invoked three times with the backoff on the virtual clock`() = runTest {
        quotes.script = { invocation -> if (invocation < 3) throw IOException("oracle down") else "3100" }
        val start = clock.elapsed()

        val quote = async { quotes.quote("ETH") }
        runCurrent()
        assertThat(quotes.invocations()).isEqualTo(1)
        advance(Duration.ofMillis(99))
        assertThat(quotes.invocations()).isEqualTo(1)
        advance(Duration.ofMillis(1))
        assertThat(quotes.invocations()).isEqualTo(2)
        advance(Duration.ofMillis(199))
        assertThat(quotes.invocations()).isEqualTo(2)
        advance(Duration.ofMillis(1))

        assertThat(quote.await()).isEqualTo("ETH 3100")
        assertThat(quotes.invocations()).isEqualTo(3)
        assertThat(clock.elapsed().minus(start)).isEqualTo(Duration.ofMillis(300))
        val result = results.only("suspend-quote")
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS)
        assertThat(result.attempts()).isEqualTo(3)
        assertThat(result.attemptFailures()).allSatisfy { assertThat(it.error()).isInstanceOf(IOException::class.java) }
    }

    @Test
    fun `final failure reaches the caller as the function's exception`() = runTest {
        quotes.script = { throw IOException("oracle down") }

        val quote = async { runCatching { quotes.quote("ETH") } }
        runCurrent()
        advance(Duration.ofMillis(100))
        advance(Duration.ofMillis(200))

        assertThat(quote.await().exceptionOrNull()).isInstanceOf(IOException::class.java).hasMessage("oracle down")
        assertThat(quotes.invocations()).isEqualTo(3)
        assertThat(results.only("suspend-quote").status()).isEqualTo(ExecutionStatus.ERROR)
    }

    @Test
    fun `result predicate judges the function's value with its Kotlin parameter names`() = runTest {
        quotes.script = { invocation -> if (invocation == 1) "stale" else "fresh" }

        val quote = async { quotes.fresh("ETH") }
        runCurrent()
        assertThat(quotes.invocations()).isEqualTo(1)
        advance(Duration.ofMillis(100))

        assertThat(quote.await()).isEqualTo("ETH fresh")
        assertThat(results.only("suspend-fresh").attempts()).isEqualTo(2)
    }

    @Test
    fun `breaker counts the function's failures, opens and then invokes nothing`() = runTest {
        val breaker = registry.findCircuitBreaker("suspend-breaker").orElseThrow()
        breaker.transitionTo(CircuitBreakerState.CLOSED)
        val failedBefore = breaker.metrics().failedCallsTotal()
        quotes.script = { throw IOException("oracle down") }

        repeat(2) { assertThat(failureOf { quotes.guarded() }).isInstanceOf(IOException::class.java) }

        assertThat(breaker.metrics().failedCallsTotal() - failedBefore).isEqualTo(2)
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN)
        assertThat(failureOf { quotes.guarded() }).isInstanceOf(CallNotPermittedException::class.java)
        assertThat(quotes.invocations()).`as`("an open breaker invokes nothing").isEqualTo(2)
    }

    @Test
    fun `invocation outliving its time limit is cancelled and the call times out`() = runTest {
        quotes.script = { awaitCancellation() }

        val call = async { runCatching { quotes.bounded() } }
        runCurrent()
        assertThat(quotes.invocations()).isEqualTo(1)
        advance(Duration.ofSeconds(1))

        assertThat(call.await().exceptionOrNull()).isInstanceOf(AttemptTimeoutException::class.java)
        assertThat(quotes.cancellations()).`as`("the invocation's coroutine").isEqualTo(1)
        assertThat(results.only("suspend-time").status()).isEqualTo(ExecutionStatus.TIMEOUT)
    }

    @Test
    fun `cancelling the coroutine in the backoff stops further attempts`() = runTest {
        quotes.script = { throw IOException("oracle down") }

        val call = launch { quotes.limited() }
        runCurrent()
        assertThat(quotes.invocations()).isEqualTo(1)
        assertThat(clock.pendingTasks()).`as`("the backoff").isEqualTo(1)
        call.cancel()
        runCurrent()
        advance(Duration.ofSeconds(10))

        assertThat(call.isCancelled).isTrue()
        assertThat(quotes.invocations()).isEqualTo(1)
        assertThat(clock.pendingTasks()).isZero()
        assertThat(registry.findBulkhead("suspend-bulkhead").orElseThrow().concurrentCalls()).isZero()
        val result = results.only("suspend-limited")
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR)
        assertThat(result.error()).isInstanceOf(CancellationException::class.java)
        assertThat(result.attempts()).isEqualTo(1)
    }

    @Test
    fun `cancelling the coroutine mid-invocation cancels the invocation and gives the bulkhead permit back`() =
        runTest {
            val bulkhead = registry.findBulkhead("suspend-bulkhead").orElseThrow()
            quotes.script = { awaitCancellation() }

            val running = launch { quotes.limited() }
            runCurrent()
            assertThat(bulkhead.concurrentCalls()).isEqualTo(1)
            assertThat(failureOf { quotes.limited() }).isInstanceOf(BulkheadFullException::class.java)
            running.cancel()
            runCurrent()

            assertThat(quotes.cancellations()).`as`("the invocation's coroutine").isEqualTo(1)
            assertThat(bulkhead.concurrentCalls()).isZero()
            quotes.script = { "free" }
            assertThat(quotes.limited()).isEqualTo("free")
            advance(Duration.ofSeconds(10))
            assertThat(quotes.invocations()).isEqualTo(2)
        }

    @Test
    fun `suspend fallback answers when retries are exhausted, in the caller's coroutine context`() = runTest {
        quotes.script = { throw IOException("oracle down") }

        val quote = async(CoroutineName("checkout")) { quotes.withFallback("ETH") }
        runCurrent()
        advance(Duration.ofMillis(100))

        assertThat(quote.await()).isEqualTo("cached ETH for checkout after oracle down")
        assertThat(quotes.coroutineNames).containsExactly("checkout", "checkout", "checkout")
        val result = results.only("suspend-fallback")
        assertThat(result.fallbackUsed()).isTrue()
        assertThat(result.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "cachedQuote")
        assertThat(result.attempts()).isEqualTo(2)
    }

    @Test
    fun `caller's Reactor context reaches the invocation and a fallback's Mono`() = runTest {
        val quote = withContext(Context.of("tenant", "acme").asCoroutineContext()) { quotes.tenant() }

        assertThat(quote).isEqualTo("no quote for acme, fallback for acme")
    }

    @Test
    fun `failing suspend fallback gives way to the next, plain, fallback`() = runTest {
        quotes.script = { throw IOException("oracle down") }

        assertThat(quotes.withFallbacks("ETH")).isEqualTo("plain ETH")

        assertThat(results.only("suspend-fallbacks").metadata())
            .containsEntry(ExecutionResult.FALLBACK_NAME, "plainQuote")
    }

    @Test
    fun `idempotent suspend function runs once and replays its value for the same key`() = runTest {
        quotes.script = { invocation -> "order-$invocation" }

        assertThat(quotes.order("req-1", "ETH")).isEqualTo("ETH order-1")
        assertThat(quotes.order("req-1", "ETH")).isEqualTo("ETH order-1")
        assertThat(failureOf { quotes.order("req-1", "BTC") })
            .`as`("the same key with other value arguments")
            .isInstanceOf(IdempotencyKeyMismatchException::class.java)
        assertThat(quotes.order("req-2", "ETH")).isEqualTo("ETH order-2")

        assertThat(quotes.invocations()).isEqualTo(2)
        assertThat(results.all("suspend-orders").map { it.replayed() }).containsExactly(false, true, false, false)
    }

    @Test
    fun `expressions over #root see the value arguments only, so a repeated call replays`() = runTest {
        quotes.script = { invocation -> "order-$invocation" }

        assertThat(quotes.orderByRoot("req-1", "ETH")).isEqualTo("ETH order-1")
        assertThat(quotes.orderByRoot("req-1", "ETH")).isEqualTo("ETH order-1")
        assertThat(failureOf { quotes.orderByRoot("req-1", "BTC") })
            .`as`("the same key with other value arguments")
            .isInstanceOf(IdempotencyKeyMismatchException::class.java)

        assertThat(quotes.invocations()).isEqualTo(1)
        assertThat(results.all("suspend-root-orders").map { it.replayed() }).containsExactly(false, true, false)
    }

    @Test
    fun `rate limited function waits for its permit without invoking`() = runTest {
        assertThat(quotes.rated()).isEqualTo("ok")

        val second = async { quotes.rated() }
        runCurrent()
        assertThat(quotes.invocations()).isEqualTo(1)
        advance(Duration.ofSeconds(1))

        assertThat(second.await()).isEqualTo("ok")
        assertThat(quotes.invocations()).isEqualTo(2)
    }

    @Test
    fun `hedge invokes the function again and the loser's coroutine is cancelled`() = runTest {
        quotes.script = { invocation -> if (invocation == 1) awaitCancellation() else "hedge" }

        val quote = async { quotes.hedged() }
        runCurrent()
        assertThat(quotes.invocations()).isEqualTo(1)
        advance(Duration.ofMillis(100))

        assertThat(quote.await()).isEqualTo("hedge")
        assertThat(quotes.invocations()).isEqualTo(2)
        assertThat(quotes.cancellations()).isEqualTo(1)
    }

    /** Moves the engine's clock, then runs what that let the test dispatcher do. */
    private fun TestScope.advance(duration: Duration) {
        clock.advance(duration)
        runCurrent()
    }

    private suspend fun failureOf(call: suspend () -> Unit): Throwable? = runCatching { call() }.exceptionOrNull()

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(SuspendQuotes::class)
    class TestApplication {

        @Bean
        fun virtualTimeSource() = VirtualTimeSource()

        @Bean
        fun callerRunsExecutor() = Executor { it.run() }

        @Bean
        fun unscopedCallers() = IdempotencyScopeResolver.NONE

        @Bean
        fun resultRecorder() = ResultRecorder()

    }

    /** Keeps the account of every call. */
    class ResultRecorder : ExecutionListener {

        private val names = CopyOnWriteArrayList<String>()

        private val results = CopyOnWriteArrayList<ExecutionResult<*>>()

        override fun onComplete(name: String, result: ExecutionResult<*>) {
            names += name
            results += result
        }

        fun only(name: String): ExecutionResult<*> {
            assertThat(names).containsExactly(name)
            return results.single()
        }

        fun all(name: String): List<ExecutionResult<*>> {
            assertThat(names).containsOnly(name)
            return results.toList()
        }

        fun clear() {
            names.clear()
            results.clear()
        }

    }

}
