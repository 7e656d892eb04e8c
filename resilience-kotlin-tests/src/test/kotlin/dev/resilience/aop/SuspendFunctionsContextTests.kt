package dev.resilience.aop

import dev.resilience.annotation.Fallback
import dev.resilience.annotation.Retryable
import dev.resilience.core.time.VirtualTimeSource
import java.io.IOException
import java.time.Duration
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors
import kotlinx.coroutines.CoroutineName
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.async
import kotlinx.coroutines.cancel
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.slf4j.MDCContext
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.slf4j.MDC
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import
import org.springframework.stereotype.Component

/**
 * What the attempts and fallbacks of a `suspend` function see of the caller's coroutine
 * context when its steps run on the engine's executor, a thread of its own: the caller's
 * dispatcher, `CoroutineName` and `MDCContext`.
 */
@SpringBootTest(
    classes = [SuspendFunctionsContextTests.TestApplication::class],
    properties = [
        "resilience.retry.defaults.jitter=none",
        "resilience.retry.defaults.budget.enabled=false",
        "resilience.async.executor=engineThread",
    ],
)
class SuspendFunctionsContextTests @Autowired constructor(
    private val quotes: ContextQuotes,
    private val clock: VirtualTimeSource,
) {

    private val caller = CoroutineScope(SupervisorJob() + Dispatchers.Default)

    @BeforeEach
    fun reset() = quotes.seen.clear()

    @AfterEach
    fun stop() = caller.cancel()

    @Test
    fun `attempts and a suspend fallback run in the caller's coroutine context`() {
        assertThat(call { quotes.quote("ETH") }).isEqualTo("suspend ETH")
        assertThat(quotes.seen).containsExactly(
            "attempt checkout r-1 DefaultDispatcher",
            "attempt checkout r-1 DefaultDispatcher",
            "fallback checkout r-1 DefaultDispatcher",
        )
    }

    @Test
    fun `plain fallback runs in the caller's coroutine context`() {
        assertThat(call { quotes.plainQuote("ETH") }).isEqualTo("plain ETH")
        assertThat(quotes.seen).containsExactly(
            "attempt checkout r-1 DefaultDispatcher",
            "attempt checkout r-1 DefaultDispatcher",
            "fallback r-1 DefaultDispatcher",
        )
    }

    /**
     * Calls a function as a coroutine of the caller's with a logging context, and moves
     * the clock past the backoff once the first attempt has failed.
     */
    private fun call(function: suspend () -> String): String {
        MDC.put("requestId", "r-1")
        val call = caller.async(CoroutineName("checkout") + MDCContext()) { function() }
        MDC.remove("requestId")
        await().until { clock.pendingTasks() == 1 }
        clock.advance(Duration.ofMillis(100))
        return runBlocking { call.await() }
    }

    /** Functions failing every attempt, recording what each attempt and fallback saw. */
    @Component
    class ContextQuotes {

        val seen: MutableList<String> = CopyOnWriteArrayList()

        @Retryable(value = "context-quote", maxAttempts = 2, delay = "100ms")
        @Fallback("suspendFallback")
        suspend fun quote(symbol: String): String = failingAttempt()

        @Retryable(value = "context-plain", maxAttempts = 2, delay = "100ms")
        @Fallback("plainFallback")
        suspend fun plainQuote(symbol: String): String = failingAttempt()

        private suspend fun failingAttempt(): String {
            seen += "attempt ${currentCoroutineContext()[CoroutineName]?.name} ${MDC.get("requestId")} ${thread()}"
            yield()
            throw IOException("oracle down")
        }

        @Suppress("unused")
        private suspend fun suspendFallback(symbol: String): String {
            seen += "fallback ${currentCoroutineContext()[CoroutineName]?.name} ${MDC.get("requestId")} ${thread()}"
            return "suspend $symbol"
        }

        @Suppress("unused")
        private fun plainFallback(symbol: String): String {
            seen += "fallback ${MDC.get("requestId")} ${thread()}"
            return "plain $symbol"
        }

        private fun thread() = Thread.currentThread().name.substringBefore("-worker")

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(ContextQuotes::class)
    class TestApplication {

        @Bean
        fun virtualTimeSource() = VirtualTimeSource()

        @Bean(destroyMethod = "shutdownNow")
        fun engineThread(): ExecutorService = Executors.newSingleThreadExecutor { Thread(it, "engine") }

    }

}
