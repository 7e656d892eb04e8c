package dev.resilience.aop

import dev.resilience.annotation.Idempotent
import dev.resilience.core.idempotency.ClaimResult
import dev.resilience.core.idempotency.IdempotencyStore
import dev.resilience.core.idempotency.InMemoryIdempotencyStore
import dev.resilience.core.time.TimeSource
import java.time.Duration
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.Executor
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors
import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.atomic.AtomicBoolean
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.reactor.awaitSingle
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import
import org.springframework.stereotype.Component
import reactor.core.publisher.Mono

/**
 * The first step of calls made from coroutines whose pipeline has a store that may block
 * (here an idempotency store of the application's own): a `suspend` function called on
 * `Dispatchers.Default`, whose few threads must never block, and a `Mono` awaited in a
 * coroutine there claim their keys off the dispatcher's threads, on the pipeline's
 * executor, as does a `Mono` awaited on kotlinx's timer thread, where a coroutine on
 * `Dispatchers.Unconfined` resumes after `delay`, and calls on `Dispatchers.IO`, whose
 * threads are `Dispatchers.Default`'s and cannot be told apart; a `suspend` function, or a
 * `Mono`, whose executor refuses that step fails with the refusal, without claiming, its
 * key free for the next call.
 */
@SpringBootTest(
    classes = [CoroutineFirstStepTests.TestApplication::class],
    properties = [
        "resilience.idempotency.fingerprint-secret=coroutine-first-step-tests-secret-0123456789",
        "resilience.async.executor=switchableExecutor",
    ],
)
class CoroutineFirstStepTests @Autowired constructor(
    private val payments: FirstStepPayments,
    private val store: ThreadRecordingStore,
    private val executor: SwitchableExecutor,
) {

    @AfterEach
    fun accept() {
        executor.refusing.set(false)
        store.clear()
    }

    @Test
    fun `key of a Mono awaited on Dispatchers Default is claimed off the dispatcher's threads`(): Unit = runBlocking {
        val before = payments.monoCalls
        val receipt = withContext(Dispatchers.Default) { payments.payMono("m-1").awaitSingle() }

        assertThat(receipt).isEqualTo("mono receipt ${before + 1}")
        assertThat(store.claimThreads()).containsExactly("engine")
    }

    @Test
    fun `key of a Mono awaited after a delay on Dispatchers Unconfined is claimed off kotlinx's timer thread`(): Unit =
        runBlocking {
            val before = payments.monoCalls
            val receipt = withContext(Dispatchers.Unconfined) {
                // a delay whose time is up before the coroutine suspends goes on on this thread: delay again
                var delays = 0
                while (!Thread.currentThread().name.startsWith(TIMER_THREAD) && delays++ < 100) {
                    delay(1)
                }
                Thread.currentThread().name to payments.payMono("u-1").awaitSingle()
            }

            assertThat(receipt.first).startsWith(TIMER_THREAD)
            assertThat(receipt.second).isEqualTo("mono receipt ${before + 1}")
            assertThat(store.claimThreads()).containsExactly("engine")
        }

    @Test
    fun `key of a suspend function called on Dispatchers Default is claimed off the dispatcher's threads`(): Unit =
        runBlocking {
            val before = payments.calls
            val receipts = withContext(Dispatchers.Default) { listOf(payments.pay("s-1"), payments.pay("s-1")) }

            assertThat(receipts).containsExactly("receipt ${before + 1}", "receipt ${before + 1}")
            assertThat(payments.calls).isEqualTo(before + 1)
            assertThat(store.claimThreads()).containsExactly("engine", "engine")
        }

    @Test
    fun `suspend function whose executor refuses the first step fails without claiming, and the key stays free`(): Unit =
        runBlocking {
            val before = payments.calls
            executor.refusing.set(true)
            val refused = withContext(Dispatchers.Default) { runCatching { payments.pay("r-1") }.exceptionOrNull() }
            executor.refusing.set(false)
            val receipt = withContext(Dispatchers.Default) { payments.pay("r-1") }

            assertThat(refused).isInstanceOf(RejectedExecutionException::class.java)
            assertThat(receipt).isEqualTo("receipt ${before + 1}")
            assertThat(store.claimThreads()).hasSize(1)
        }

    @Test
    fun `key of a Mono awaited on Dispatchers IO is claimed on the executor too, IO's threads being Default's`(): Unit =
        runBlocking {
            val before = payments.monoCalls
            val receipt = withContext(Dispatchers.IO) { payments.payMono("io-1").awaitSingle() }

            assertThat(receipt).isEqualTo("mono receipt ${before + 1}")
            assertThat(store.claimThreads()).containsExactly("engine")
        }

    @Test
    fun `key of a suspend function called on Dispatchers IO is claimed on the executor`(): Unit = runBlocking {
        val before = payments.calls
        val receipt = withContext(Dispatchers.IO) { payments.pay("io-2") }

        assertThat(receipt).isEqualTo("receipt ${before + 1}")
        assertThat(store.claimThreads()).containsExactly("engine")
    }

    @Test
    fun `Mono whose executor refuses the first step fails without claiming, and the key stays free`(): Unit =
        runBlocking {
            val before = payments.monoCalls
            executor.refusing.set(true)
            val refused = withContext(Dispatchers.Default) {
                runCatching { payments.payMono("mr-1").awaitSingle() }.exceptionOrNull()
            }
            executor.refusing.set(false)
            val receipt = withContext(Dispatchers.Default) { payments.payMono("mr-1").awaitSingle() }

            assertThat(refused).isInstanceOf(RejectedExecutionException::class.java)
            assertThat(payments.monoCalls).isEqualTo(before + 1)
            assertThat(receipt).isEqualTo("mono receipt ${before + 1}")
            assertThat(store.claimThreads()).containsExactly("engine")
        }

    companion object {

        /** The name of kotlinx's timer thread, followed by the coroutine's in debug mode. */
        const val TIMER_THREAD = "kotlinx.coroutines.DefaultExecutor"

    }

    /** Payments, charged once per key. */
    @Component
    class FirstStepPayments {

        @Volatile
        var calls = 0

        @Volatile
        var monoCalls = 0

        @Idempotent(name = "first-step-suspend-payments", key = "#key")
        suspend fun pay(key: String): String = "receipt ${++calls}"

        @Idempotent(name = "first-step-mono-payments", key = "#key")
        fun payMono(key: String): Mono<String> = Mono.fromSupplier { "mono receipt ${++monoCalls}" }

    }

    /** An executor that runs steps on a thread of its own, or refuses them. */
    class SwitchableExecutor(private val engine: ExecutorService = Executors.newSingleThreadExecutor { Thread(it, "engine") }) :
        Executor {

        val refusing = AtomicBoolean()

        override fun execute(command: Runnable) {
            if (refusing.get()) {
                throw RejectedExecutionException("refused by the test")
            }
            engine.execute(command)
        }

        fun shutdown() = engine.shutdownNow()

    }

    /** An idempotency store of the application's own, taken to block, that records the thread of each claim. */
    class ThreadRecordingStore(
        private val keys: IdempotencyStore = InMemoryIdempotencyStore(TimeSource.system()),
    ) : IdempotencyStore by keys {

        private val claims = CopyOnWriteArrayList<String>()

        override fun claim(key: String, fingerprint: String, lease: Duration): ClaimResult {
            claims += Thread.currentThread().name
            return keys.claim(key, fingerprint, lease)
        }

        fun claimThreads(): List<String> = claims

        fun clear() = claims.clear()

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(FirstStepPayments::class)
    class TestApplication {

        @Bean
        fun idempotencyStore() = ThreadRecordingStore()

        @Bean(destroyMethod = "shutdown")
        fun switchableExecutor() = SwitchableExecutor()

    }

}
