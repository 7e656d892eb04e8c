package dev.resilience.aop

import dev.resilience.annotation.Retryable
import dev.resilience.core.deadletter.DeadLetter
import dev.resilience.core.deadletter.DeadLetterStore
import dev.resilience.core.deadletter.InMemoryDeadLetterStore
import java.io.IOException
import java.util.concurrent.CopyOnWriteArrayList
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.reactor.asCoroutineDispatcher
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
import reactor.core.publisher.Flux
import reactor.core.scheduler.Schedulers

/**
 * Functions returning a `Flow`, and a method returning `Flux`, whose pipeline has a store
 * that may block (here a dead-letter store of the application's own), collected on a
 * thread Reactor marks non-blocking: their calls start on the pipeline's executor, as a
 * `Mono`'s do, so that no store call blocks that thread.
 */
@SpringBootTest(classes = [FlowFunctionsNonBlockingTests.TestApplication::class])
class FlowFunctionsNonBlockingTests @Autowired constructor(
    private val feeds: Feeds,
    private val store: ThreadRecordingDeadLetterStore,
) {

    @Test
    fun `dead letter of a flow collected on a non-blocking thread is written off it`(): Unit = runBlocking {
        val failure = withContext(Schedulers.parallel().asCoroutineDispatcher()) {
            runCatching { feeds.quotes().toList() }.exceptionOrNull()
        }

        assertThat(failure).isInstanceOf(IOException::class.java)
        assertThat(store.writes("non-blocking-flow")).`as`("written on a non-blocking thread").containsExactly(false)
    }

    @Test
    fun `dead letter of a suspend function's flow collected on a non-blocking thread is written off it`(): Unit =
        runBlocking {
            val failure = withContext(Schedulers.parallel().asCoroutineDispatcher()) {
                runCatching { feeds.suspendQuotes().toList() }.exceptionOrNull()
            }

            assertThat(failure).isInstanceOf(IOException::class.java)
            assertThat(store.writes("non-blocking-suspend-flow")).containsExactly(false)
        }

    @Test
    fun `dead letter of a Flux subscribed on a non-blocking thread is written off it`() {
        val failure = runCatching { feeds.flux().subscribeOn(Schedulers.parallel()).blockLast() }.exceptionOrNull()

        assertThat(failure).hasCauseInstanceOf(IOException::class.java)
        assertThat(store.writes("non-blocking-flux")).containsExactly(false)
    }

    /** Methods failing before their first element. */
    @Component
    class Feeds {

        @Retryable(value = "non-blocking-flow", maxAttempts = 1)
        fun quotes(): Flow<String> = flow { throw IOException("oracle down") }

        @Retryable(value = "non-blocking-suspend-flow", maxAttempts = 1)
        suspend fun suspendQuotes(): Flow<String> = flow { throw IOException("oracle down") }

        @Retryable(value = "non-blocking-flux", maxAttempts = 1)
        fun flux(): Flux<String> = Flux.error(IOException("oracle down"))

    }

    /**
     * A dead-letter store of the application's own, taken to block, that records whether
     * each letter was written on a thread Reactor marks non-blocking.
     */
    class ThreadRecordingDeadLetterStore(
        private val letters: InMemoryDeadLetterStore = InMemoryDeadLetterStore(),
    ) : DeadLetterStore by letters {

        private val writes = CopyOnWriteArrayList<Pair<String, Boolean>>()

        override fun write(deadLetter: DeadLetter) {
            writes += deadLetter.name() to Schedulers.isInNonBlockingThread()
            letters.write(deadLetter)
        }

        fun writes(name: String): List<Boolean> = writes.filter { it.first == name }.map { it.second }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Feeds::class)
    class TestApplication {

        @Bean
        fun deadLetterStore() = ThreadRecordingDeadLetterStore()

    }

}
