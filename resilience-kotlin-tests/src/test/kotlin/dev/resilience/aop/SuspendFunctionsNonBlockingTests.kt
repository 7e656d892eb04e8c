package dev.resilience.aop

import dev.resilience.annotation.Idempotent
import dev.resilience.core.idempotency.ClaimResult
import dev.resilience.core.idempotency.IdempotencyStore
import dev.resilience.core.idempotency.InMemoryIdempotencyStore
import dev.resilience.core.time.TimeSource
import java.time.Duration
import java.util.concurrent.CopyOnWriteArrayList
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import
import org.springframework.stereotype.Component

/**
 * A `suspend` function whose pipeline has a store that may block (here an idempotency store
 * of the application's own), called from a coroutine on `Dispatchers.Default`, whose few
 * threads must never block: the call's first step, the claim of its key, runs on the
 * pipeline's executor, whatever dispatcher the caller is on.
 */
@SpringBootTest(
    classes = [SuspendFunctionsNonBlockingTests.TestApplication::class],
    properties = ["resilience.idempotency.fingerprint-secret=suspend-non-blocking-tests-secret-0123456789"],
)
class SuspendFunctionsNonBlockingTests @Autowired constructor(
    private val payments: Payments,
    private val store: ThreadRecordingIdempotencyStore,
) {

    @Test
    fun `key of a suspend function called on Dispatchers Default is claimed off the dispatcher's threads`(): Unit =
        runBlocking {
            val receipts = withContext(Dispatchers.Default) { listOf(payments.pay("k-1"), payments.pay("k-1")) }

            assertThat(receipts).containsExactly("receipt 1", "receipt 1")
            assertThat(payments.calls).isEqualTo(1)
            assertThat(store.claimThreads()).hasSize(2).noneMatch { it.startsWith("DefaultDispatcher-worker") }
        }

    /** A payment, charged once per key. */
    @Component
    class Payments {

        @Volatile
        var calls = 0

        @Idempotent(name = "non-blocking-suspend-payments", key = "#key")
        suspend fun pay(key: String): String = "receipt ${++calls}"

    }

    /**
     * An idempotency store of the application's own, taken to block, that records the
     * thread of each claim.
     */
    class ThreadRecordingIdempotencyStore(
        private val keys: IdempotencyStore = InMemoryIdempotencyStore(TimeSource.system()),
    ) : IdempotencyStore by keys {

        private val claims = CopyOnWriteArrayList<String>()

        override fun claim(key: String, fingerprint: String, lease: Duration): ClaimResult {
            claims += Thread.currentThread().name
            return keys.claim(key, fingerprint, lease)
        }

        fun claimThreads(): List<String> = claims

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Payments::class)
    class TestApplication {

        @Bean
        fun idempotencyStore() = ThreadRecordingIdempotencyStore()

    }

}
