package dev.resilience.aop

import dev.resilience.core.AttemptTimeoutException
import dev.resilience.core.ExecutionResult
import dev.resilience.core.ExecutionStatus
import dev.resilience.core.bulkhead.BulkheadFullException
import dev.resilience.core.circuitbreaker.CallNotPermittedException
import dev.resilience.core.circuitbreaker.CircuitBreakerState
import dev.resilience.core.time.VirtualTimeSource
import dev.resilience.registry.ResilienceRegistry
import java.io.IOException
import java.time.Duration
import java.util.concurrent.CancellationException
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.Executor
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.catch
import kotlinx.coroutines.flow.collect
import kotlinx.coroutines.flow.toList
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
 * Functions returning a Kotlin `Flow`, plain and `suspend`, through the starter's proxy on
 * the engine's virtual clock, with an executor that runs each step on the thread that
 * moves the clock, in `runTest`: each collection of the returned `Flow` is one call, each
 * attempt a fresh collection of the `Flow` the function returns, retried only while it
 * has emitted nothing.
 */
@OptIn(ExperimentalCoroutinesApi::class)
@SpringBootTest(
    classes = [FlowFunctionsTests.TestApplication::class],
    properties = [
        "resilience.retry.defaults.jitter=none",
        "resilience.retry.defaults.budget.enabled=false",
        "resilience.async.executor=callerRunsExecutor",
        "resilience.circuit-breaker.instances.flow-breaker.minimum-calls=2",
        "resilience.circuit-breaker.instances.flow-breaker.sliding-window-size=2",
        "resilience.circuit-breaker.instances.flow-breaker.wait-in-open=1m",
    ],
)
class FlowFunctionsTests @Autowired constructor(
    private val quotes: FlowQuotes,
    private val clock: VirtualTimeSource,
    private val results: SuspendFunctionsTests.ResultRecorder,
    private val registry: ResilienceRegistry,
) {

    @BeforeEach
    fun reset() {
        quotes.reset()
        results.clear()
    }

    @Test
    fun `flow failing twice before its first element is collected three times with the backoff on the virtual clock`() =
        runTest {
            quotes.script = { collection -> if (collection < 3) throw IOException("oracle down") else emit("3100") }
            val start = clock.elapsed()

            val elements = async { quotes.quotes().toList() }
            runCurrent()
            assertThat(quotes.collections()).isEqualTo(1)
            advance(Duration.ofMillis(99))
            assertThat(quotes.collections()).isEqualTo(1)
            advance(Duration.ofMillis(1))
            assertThat(quotes.collections()).isEqualTo(2)
            advance(Duration.ofMillis(199))
            assertThat(quotes.collections()).isEqualTo(2)
            advance(Duration.ofMillis(1))

            assertThat(elements.await()).containsExactly("3100")
            assertThat(quotes.invocations()).`as`("the function, once per attempt").isEqualTo(3)
            assertThat(quotes.collections()).isEqualTo(3)
            assertThat(clock.elapsed().minus(start)).isEqualTo(Duration.ofMillis(300))
            val result = results.only("flow-quotes")
            assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS)
            assertThat(result.attempts()).isEqualTo(3)
            assertThat(result.attemptFailures()).allSatisfy {
                assertThat(it.error()).isInstanceOf(IOException::class.java)
            }
        }

    @Test
    fun `suspend function's flow is retried the same way, the function invoked once per attempt`() = runTest {
        quotes.script = { collection -> if (collection < 3) throw IOException("oracle down") else emit("3100") }

        val elements = async { quotes.suspendQuotes().toList() }
        runCurrent()
        assertThat(quotes.invocations()).isEqualTo(1)
        advance(Duration.ofMillis(100))
        assertThat(quotes.invocations()).isEqualTo(2)
        advance(Duration.ofMillis(200))

        assertThat(elements.await()).containsExactly("3100")
        assertThat(quotes.invocations()).isEqualTo(3)
        assertThat(quotes.collections()).isEqualTo(3)
        assertThat(results.only("flow-suspend").attempts()).isEqualTo(3)
    }

    @Test
    fun `returned flow is cold and each collection is a call of its own`() = runTest {
        val plain = quotes.quotes()
        val suspending = quotes.suspendQuotes()
        runCurrent()
        assertThat(quotes.invocations()).`as`("before any collection").isZero()

        assertThat(plain.toList()).containsExactly("ok")
        assertThat(plain.toList()).containsExactly("ok")
        assertThat(results.all("flow-quotes")).hasSize(2)
        results.clear()
        assertThat(suspending.toList()).containsExactly("ok")

        assertThat(results.only("flow-suspend").status()).isEqualTo(ExecutionStatus.SUCCESS)
        assertThat(quotes.invocations()).isEqualTo(3)
    }

    @Test
    fun `flow failing after its first element is collected once and its error reaches the collector`() = runTest {
        quotes.script = {
            emit("first")
            throw IOException("stream broken")
        }
        val seen = CopyOnWriteArrayList<String>()

        val failure = runCatching { quotes.once().collect { seen += it } }.exceptionOrNull()
        advance(Duration.ofSeconds(10))

        assertThat(seen).containsExactly("first")
        assertThat(failure).isInstanceOf(IOException::class.java).hasMessage("stream broken")
        assertThat(quotes.collections()).`as`("never collected again").isEqualTo(1)
        val result = results.only("flow-once")
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS)
        assertThat(result.attempts()).isEqualTo(1)
    }

    @Test
    fun `result predicate judges the first element with the function's Kotlin parameter names`() = runTest {
        quotes.script = { collection -> if (collection == 1) emit("ETH stale") else emit("ETH fresh") }

        val elements = async { quotes.fresh("ETH").toList() }
        runCurrent()
        assertThat(quotes.collections()).isEqualTo(1)
        advance(Duration.ofMillis(100))

        assertThat(elements.await()).`as`("the refused first element is never seen").containsExactly("ETH fresh")
        assertThat(results.only("flow-fresh").attempts()).isEqualTo(2)
    }

    @Test
    fun `breaker counts the flows' failures, opens and then invokes nothing`() = runTest {
        val breaker = registry.findCircuitBreaker("flow-breaker").orElseThrow()
        breaker.transitionTo(CircuitBreakerState.CLOSED)
        val failedBefore = breaker.metrics().failedCallsTotal()
        quotes.script = { throw IOException("oracle down") }

        repeat(2) { assertThat(failureOf(quotes.guarded())).isInstanceOf(IOException::class.java) }

        assertThat(breaker.metrics().failedCallsTotal() - failedBefore).isEqualTo(2)
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.OPEN)
        assertThat(failureOf(quotes.guarded())).isInstanceOf(CallNotPermittedException::class.java)
        assertThat(quotes.invocations()).`as`("an open breaker invokes nothing").isEqualTo(2)
    }

    @Test
    fun `cancelling the collector in the backoff stops further attempts`() = runTest {
        quotes.script = { throw IOException("oracle down") }

        val collector = launch { quotes.limited().collect() }
        runCurrent()
        assertThat(quotes.collections()).isEqualTo(1)
        assertThat(clock.pendingTasks()).`as`("the backoff").isEqualTo(1)
        collector.cancel()
        runCurrent()
        advance(Duration.ofSeconds(10))

        assertThat(collector.isCancelled).isTrue()
        assertThat(quotes.invocations()).isEqualTo(1)
        assertThat(quotes.collections()).isEqualTo(1)
        assertThat(clock.pendingTasks()).isZero()
        assertThat(registry.findBulkhead("flow-bulkhead").orElseThrow().concurrentCalls()).isZero()
        val result = results.only("flow-limited")
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR)
        assertThat(result.error()).isInstanceOf(CancellationException::class.java)
        assertThat(result.attempts()).isEqualTo(1)
    }

    @Test
    fun `cancelling the collector before the first element cancels the collection and gives the permit back`() =
        runTest {
            val bulkhead = registry.findBulkhead("flow-bulkhead").orElseThrow()
            quotes.script = { awaitCancellation() }

            val running = launch { quotes.limited().collect() }
            runCurrent()
            assertThat(bulkhead.concurrentCalls()).isEqualTo(1)
            assertThat(failureOf(quotes.limited())).isInstanceOf(BulkheadFullException::class.java)
            running.cancel()
            runCurrent()

            assertThat(quotes.cancellations()).`as`("the function's flow").isEqualTo(1)
            assertThat(bulkhead.concurrentCalls()).isZero()
            quotes.script = { emit("free") }
            assertThat(quotes.limited().toList()).containsExactly("free")
            advance(Duration.ofSeconds(10))
            assertThat(quotes.invocations()).`as`("no attempt after the cancellation").isEqualTo(2)
        }

    @Test
    fun `flow without a first element in its time limit is cancelled and the call times out`() = runTest {
        quotes.script = { awaitCancellation() }

        val call = async { runCatching { quotes.bounded().toList() } }
        runCurrent()
        assertThat(quotes.collections()).isEqualTo(1)
        advance(Duration.ofSeconds(1))

        assertThat(call.await().exceptionOrNull()).isInstanceOf(AttemptTimeoutException::class.java)
        assertThat(quotes.cancellations()).`as`("the function's flow").isEqualTo(1)
        assertThat(results.only("flow-time").status()).isEqualTo(ExecutionStatus.TIMEOUT)
    }

    @Test
    fun `rate limited flow waits for its permit before it is collected`() = runTest {
        assertThat(quotes.rated().toList()).containsExactly("ok")

        val second = async { quotes.rated().toList() }
        runCurrent()
        assertThat(quotes.invocations()).isEqualTo(1)
        advance(Duration.ofSeconds(1))

        assertThat(second.await()).containsExactly("ok")
        assertThat(quotes.invocations()).isEqualTo(2)
    }

    @Test
    fun `collector's demand reaches the function's flow`() = runTest {
        quotes.script = { repeat(1000) { emit("quote $it") } }
        val firstSeen = CompletableDeferred<Unit>()
        val release = CompletableDeferred<Unit>()

        val elements = async {
            val seen = mutableListOf<String>()
            quotes.quotes().collect {
                seen += it
                if (seen.size == 1) {
                    firstSeen.complete(Unit)
                    release.await()
                }
            }
            seen
        }
        firstSeen.await()
        runCurrent()

        assertThat(quotes.emitted()).`as`("the 64 elements the collector's buffer asked for, and no more")
            .isEqualTo(64)
        release.complete(Unit)
        assertThat(elements.await()).hasSize(1000).startsWith("quote 0", "quote 1").endsWith("quote 999")
        assertThat(quotes.emitted()).isEqualTo(1000)
    }

    @Test
    fun `fallback returning a flow answers when retries are exhausted`() = runTest {
        quotes.script = { throw IOException("oracle down") }

        val elements = async { quotes.withFlowFallback("ETH").toList() }
        runCurrent()
        advance(Duration.ofMillis(100))

        assertThat(elements.await()).containsExactly("cached ETH", "after oracle down")
        val result = results.only("flow-flow-fallback")
        assertThat(result.fallbackUsed()).isTrue()
        assertThat(result.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "cachedFlow")
        assertThat(result.attempts()).isEqualTo(2)
    }

    @Test
    fun `failing Flux fallback of a suspend function gives way to a list of elements`() = runTest {
        quotes.script = { throw IOException("oracle down") }

        assertThat(quotes.withFallbacks("ETH").toList()).containsExactly("ETH 1", "ETH 2")

        assertThat(results.only("flow-fallbacks").metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "cachedList")
    }

    @Test
    fun `fallback returning one element answers as a flow of it`() = runTest {
        quotes.script = { throw IOException("oracle down") }

        assertThat(quotes.withElementFallback().toList()).containsExactly("one")
    }

    @Test
    fun `collector's Reactor context reaches the function's flow and a fallback's Flux`() = runTest {
        val elements = withContext(Context.of("tenant", "acme").asCoroutineContext()) { quotes.tenant().toList() }

        assertThat(elements).containsExactly("no quote for acme, fallback for acme")
    }

    /** Moves the engine's clock, then runs what that let the test dispatcher do. */
    private fun TestScope.advance(duration: Duration) {
        clock.advance(duration)
        runCurrent()
    }

    private suspend fun failureOf(flow: Flow<String>): Throwable? {
        var failure: Throwable? = null
        flow.catch { failure = it }.collect()
        return failure
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(FlowQuotes::class)
    class TestApplication {

        @Bean
        fun virtualTimeSource() = VirtualTimeSource()

        @Bean
        fun callerRunsExecutor() = Executor { it.run() }

        @Bean
        fun resultRecorder() = SuspendFunctionsTests.ResultRecorder()

    }

}
