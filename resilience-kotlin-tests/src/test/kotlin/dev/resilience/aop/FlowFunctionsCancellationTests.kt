package dev.resilience.aop

import dev.resilience.core.ExecutionStatus
import dev.resilience.core.RejectedResultException
import dev.resilience.core.deadletter.DeadLetterStore
import dev.resilience.core.time.VirtualTimeSource
import dev.resilience.redrive.DeadLetterRedrive
import dev.resilience.redrive.RedriveResult
import dev.resilience.registry.ResilienceRegistry
import java.io.IOException
import java.time.Duration
import java.util.concurrent.CancellationException
import java.util.concurrent.Executor
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.TimeoutCancellationException
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.collect
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.take
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.flow.zip
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.test.TestScope
import kotlinx.coroutines.test.runCurrent
import kotlinx.coroutines.test.runTest
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import

/**
 * Functions returning a Kotlin `Flow` whose collector stops early (`first()`, `take(n)`,
 * a cancelled coroutine) at each point of the call, whose function fails before it
 * returns its `Flow`, and whose `Flow` runs on another dispatcher or is a `callbackFlow`,
 * through the starter's proxy on the engine's virtual clock.
 */
@OptIn(ExperimentalCoroutinesApi::class)
@SpringBootTest(
    classes = [FlowFunctionsCancellationTests.TestApplication::class],
    properties = [
        "resilience.retry.defaults.jitter=none",
        "resilience.retry.defaults.budget.enabled=false",
        "resilience.async.executor=callerRunsExecutor",
    ],
)
class FlowFunctionsCancellationTests @Autowired constructor(
    private val streams: FlowStreams,
    private val clock: VirtualTimeSource,
    private val results: SuspendFunctionsTests.ResultRecorder,
    private val deadLetters: DeadLetterStore,
    private val redrive: DeadLetterRedrive,
    private val registry: ResilienceRegistry,
) {

    @BeforeEach
    fun reset() {
        streams.reset()
        results.clear()
    }

    @Test
    fun `first() on the returned flow cancels the function's flow and ends the call a success, never retried`() =
        runTest {
            streams.script = { repeat(1000) { emit("quote $it") } }
            val lettersBefore = deadLetters.size()

            assertThat(streams.retried().first()).isEqualTo("quote 0")
            advance(Duration.ofSeconds(10))

            assertThat(streams.ended()).`as`("the function's flow ended").isEqualTo(1)
            assertThat(streams.emitted()).`as`("no more than the collector's buffer").isLessThanOrEqualTo(64)
            assertThat(streams.collections()).isEqualTo(1)
            val result = results.only("streams-retried")
            assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS)
            assertThat(result.attempts()).isEqualTo(1)
            assertThat(deadLetters.size()).isEqualTo(lettersBefore)
        }

    @Test
    fun `take(2) on a suspend function's flow cancels it after its second element`() = runTest {
        streams.script = { repeat(1000) { emit("quote $it") } }

        assertThat(streams.suspendRetried().take(2).toList()).containsExactly("quote 0", "quote 1")
        advance(Duration.ofSeconds(10))

        assertThat(streams.ended()).isEqualTo(1)
        assertThat(streams.invocations()).isEqualTo(1)
        assertThat(results.only("streams-suspend").status()).isEqualTo(ExecutionStatus.SUCCESS)
    }

    @Test
    fun `function failing before it returns its flow is retried and its error is the one it threw`() = runTest {
        streams.invoked = { if (it == 1) throw IOException("no connection") }

        val elements = async { streams.retried().toList() }
        runCurrent()
        assertThat(streams.invocations()).isEqualTo(1)
        advance(Duration.ofMillis(100))

        assertThat(elements.await()).containsExactly("ok")
        assertThat(streams.invocations()).isEqualTo(2)
        assertThat(streams.collections()).isEqualTo(1)
        val result = results.only("streams-retried")
        assertThat(result.attempts()).isEqualTo(2)
        assertThat(result.attemptFailures().single().error()).isInstanceOf(IOException::class.java)
            .hasMessage("no connection")
    }

    @Test
    fun `function failing before it returns its flow goes to the fallback taking its exception`() = runTest {
        streams.invoked = { throw IOException("no connection") }

        assertThat(streams.withFallback("ETH").toList()).containsExactly("fallback")

        assertThat(results.only("streams-fallback").fallbackUsed()).isTrue()
    }

    @Test
    fun `flow completing empty completes the collection empty, a success`() = runTest {
        streams.script = { }

        assertThat(streams.retried().toList()).isEmpty()

        assertThat(streams.collections()).isEqualTo(1)
        assertThat(results.only("streams-retried").status()).isEqualTo(ExecutionStatus.SUCCESS)
    }

    @Test
    fun `cancelling the collector during a fallback's flow cancels it`() = runTest {
        streams.script = { throw IOException("oracle down") }
        streams.fallbackScript = { awaitCancellation() }

        val collector = launch { streams.withFallback("ETH").collect() }
        runCurrent()
        assertThat(streams.fallbacks()).isEqualTo(1)
        collector.cancel()
        runCurrent()

        assertThat(streams.ended()).`as`("the attempt's flow and the fallback's").isEqualTo(2)
        val result = results.only("streams-fallback")
        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR)
        assertThat(result.error()).isInstanceOf(CancellationException::class.java)
    }

    @Test
    fun `cancelling the collector while it waits for a rate limiter's permit invokes nothing afterwards`() = runTest {
        assertThat(streams.rated().toList()).containsExactly("ok")

        val waiting = launch { streams.rated().collect() }
        runCurrent()
        assertThat(clock.pendingTasks()).`as`("the wait for a permit").isEqualTo(1)
        waiting.cancel()
        runCurrent()
        advance(Duration.ofSeconds(30))

        assertThat(streams.invocations()).isEqualTo(1)
        assertThat(clock.pendingTasks()).isZero()
        assertThat(results.all("streams-rated").last().error()).isInstanceOf(CancellationException::class.java)
    }

    @Test
    fun `cancelling the collector while it waits for a bulkhead permit invokes nothing afterwards`() = runTest {
        streams.script = { awaitCancellation() }
        val bulkhead = registry.findBulkhead("streams-queued").orElseThrow()

        val holding = launch { streams.queued().collect() }
        runCurrent()
        val waiting = launch { streams.queued().collect() }
        runCurrent()
        waiting.cancel()
        runCurrent()
        holding.cancel()
        runCurrent()
        advance(Duration.ofSeconds(30))

        assertThat(streams.invocations()).isEqualTo(1)
        assertThat(bulkhead.concurrentCalls()).isZero()
        assertThat(results.all("streams-queued")).hasSize(2).allSatisfy {
            assertThat(it.error()).isInstanceOf(CancellationException::class.java)
        }
    }

    @Test
    fun `cancelling the collector while a suspend function's body is suspended cancels the body`() = runTest {
        val collector = launch { streams.slowStart().collect() }
        runCurrent()
        assertThat(streams.invocations()).isEqualTo(1)
        collector.cancel()
        runCurrent()

        assertThat(streams.ended()).isEqualTo(1)
        assertThat(results.only("streams-slow-start").error()).isInstanceOf(CancellationException::class.java)
    }

    @Test
    fun `flow on the IO dispatcher is retried before its first element and cancelled by first()`(): Unit = runBlocking {
        streams.script = { collection ->
            if (collection < 2) throw IOException("oracle down")
            repeat(1000) { emit("quote $it") }
        }

        val first = async(Dispatchers.Default) { streams.onIo().first() }
        await().atMost(Duration.ofSeconds(10)).until { clock.pendingTasks() == 1 }
        clock.advance(Duration.ofMillis(100))

        assertThat(first.await()).isEqualTo("quote 0")
        await().atMost(Duration.ofSeconds(10)).until { streams.ended() == 2 }
        assertThat(streams.collections()).isEqualTo(2)
        await().atMost(Duration.ofSeconds(10)).until { results.all("streams-io").size == 1 }
        assertThat(results.only("streams-io").status()).isEqualTo(ExecutionStatus.SUCCESS)
    }

    @Test
    fun `timeout escaping the function's flow is a failure of the attempt, retried`(): Unit = runBlocking {
        streams.script = { collection ->
            if (collection == 1) withTimeout(1) { awaitCancellation() }
            emit("ok")
        }

        val elements = async(Dispatchers.Default) { streams.retried().toList() }
        await().atMost(Duration.ofSeconds(10)).until { clock.pendingTasks() == 1 }
        clock.advance(Duration.ofMillis(100))

        assertThat(elements.await()).containsExactly("ok")
        val result = results.only("streams-retried")
        assertThat(result.attempts()).isEqualTo(2)
        assertThat(result.attemptFailures().single().error()).isInstanceOf(TimeoutCancellationException::class.java)
    }

    @Test
    fun `timeout escaping the function's flow goes to the fallback`(): Unit = runBlocking {
        streams.script = { withTimeout(1) { awaitCancellation() } }

        val elements = withContext(Dispatchers.Default) { runCatching { streams.withAnyFallback("ETH").toList() } }

        assertThat(elements.getOrNull()).`as`(elements.toString())
            .containsExactly("fallback after TimeoutCancellationException")
        assertThat(results.only("streams-any-fallback").fallbackUsed()).isTrue()
    }

    @Test
    fun `error thrown by the function's flow is neither retried nor sent to a fallback`() = runTest {
        streams.script = { throw AssertionError("broken invariant") }

        val failure = runCatching { streams.withAnyFallback("ETH").toList() }.exceptionOrNull()
        advance(Duration.ofSeconds(10))

        assertThat(failure).isInstanceOf(AssertionError::class.java).hasMessage("broken invariant")
        assertThat(streams.collections()).isEqualTo(1)
    }

    @Test
    fun `first elements refused on every attempt cancel each attempt's flow and give the permit back`() = runTest {
        streams.script = {
            emit("stale")
            awaitCancellation()
        }

        val failure = async { runCatching { streams.judged().toList() }.exceptionOrNull() }
        runCurrent()
        advance(Duration.ofMillis(100))

        assertThat(failure.await()).isInstanceOf(RejectedResultException::class.java)
        assertThat(streams.collections()).isEqualTo(2)
        assertThat(streams.ended()).`as`("both attempts' flows").isEqualTo(2)
        assertThat(registry.findBulkhead("streams-judged").orElseThrow().concurrentCalls()).isZero()
    }

    @Test
    fun `callbackFlow is closed when the collector has its first element`() = runTest {
        assertThat(streams.callback().first()).isEqualTo("first")
        runCurrent()

        assertThat(streams.ended()).`as`("its awaitClose").isEqualTo(1)
        assertThat(results.only("streams-callback").status()).isEqualTo(ExecutionStatus.SUCCESS)
    }

    @Test
    fun `dead letter of a flow is re-driven by collecting it, and deleted when it succeeds`() = runTest {
        streams.script = { throw IOException("oracle down") }
        val failure = runCatching { streams.once("ETH").toList() }.exceptionOrNull()
        assertThat(failure).isInstanceOf(IOException::class.java)
        val letter = deadLetters.list(100).single { it.name() == "streams-once" }
        streams.script = { emit("ok") }

        val redriven = redrive.redrive(letter.id())

        assertThat(redriven.outcome()).isEqualTo(RedriveResult.Outcome.SUCCESS)
        assertThat(streams.collections()).isEqualTo(2)
        assertThat(deadLetters.find(letter.id())).isEmpty()
    }

    @Test
    fun `collector cancelled by zip in a backoff leaves no dead letter`() = runTest {
        streams.script = { throw IOException("oracle down") }
        val lettersBefore = deadLetters.size()

        val ending = flow<String> { delay(50) }
        val collector = launch { streams.retried().zip(ending) { quote, end -> quote + end }.collect() }
        runCurrent()
        assertThat(streams.collections()).isEqualTo(1)
        testScheduler.advanceTimeBy(60)
        runCurrent()
        advance(Duration.ofSeconds(10))

        assertThat(collector.isCompleted).isTrue()
        assertThat(streams.collections()).isEqualTo(1)
        assertThat(results.only("streams-retried").error()).isInstanceOf(CancellationException::class.java)
        assertThat(deadLetters.size()).`as`("dead letters written").isEqualTo(lettersBefore)
    }

    /** Moves the engine's clock, then runs what that let the test dispatcher do. */
    private fun TestScope.advance(duration: Duration) {
        clock.advance(duration)
        runCurrent()
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(FlowStreams::class)
    class TestApplication {

        @Bean
        fun virtualTimeSource() = VirtualTimeSource()

        @Bean
        fun callerRunsExecutor() = Executor { it.run() }

        @Bean
        fun resultRecorder() = SuspendFunctionsTests.ResultRecorder()

    }

}
