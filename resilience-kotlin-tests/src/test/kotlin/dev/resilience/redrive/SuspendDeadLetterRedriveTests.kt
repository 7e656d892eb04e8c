package dev.resilience.redrive

import dev.resilience.annotation.Retryable
import dev.resilience.core.deadletter.DeadLetterStore
import dev.resilience.core.time.VirtualTimeSource
import java.io.IOException
import java.util.concurrent.CopyOnWriteArrayList
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import
import org.springframework.stereotype.Component

/**
 * The dead letter of a `suspend` function is re-driven through the bean's proxy with its
 * value arguments, as that of a method returning `Mono` is.
 */
@SpringBootTest(classes = [SuspendDeadLetterRedriveTests.TestApplication::class])
class SuspendDeadLetterRedriveTests @Autowired constructor(
    private val shipments: Shipments,
    private val store: DeadLetterStore,
    private val redrive: DeadLetterRedrive,
) {

    @BeforeEach
    fun reset() {
        store.list(100).forEach { store.delete(it.id()) }
        shipments.shipped.clear()
        shipments.failAfterFirst = false
    }

    @Test
    fun `dead letter of a suspend function is re-driven with its arguments and deleted`() {
        shipments.down = true
        assertThat(runCatching { runBlocking { shipments.ship("o-1", 2) } }.exceptionOrNull())
            .isInstanceOf(IOException::class.java)
        val letter = store.list(10).single()
        assertThat(letter.arguments()).containsExactly("\"o-1\"", "2")
        shipments.down = false

        val result = redrive.redrive(letter.id())

        assertThat(result.outcome()).isEqualTo(RedriveResult.Outcome.SUCCESS)
        assertThat(result.status()).isEqualTo("SUCCESS")
        assertThat(shipments.shipped).containsExactly("o-1 x2")
        assertThat(store.size()).isZero()
    }

    @Test
    fun `suspend function failing again keeps its one letter`() {
        shipments.down = true
        assertThat(runCatching { runBlocking { shipments.ship("o-2", 1) } }.exceptionOrNull())
            .isInstanceOf(IOException::class.java)
        val letter = store.list(10).single()

        val result = redrive.redrive(letter.id())

        assertThat(result.outcome()).isEqualTo(RedriveResult.Outcome.FAILURE)
        assertThat(result.status()).isEqualTo("ERROR")
        assertThat(result.errorClass()).isEqualTo(IOException::class.java.name)
        assertThat(store.list(10)).containsExactly(letter)
    }

    @Test
    fun `dead letter of a suspend function returning a Flow is re-driven, every element collected`() {
        shipments.down = true
        assertThat(runCatching { runBlocking { shipments.track("o-3").toList() } }.exceptionOrNull())
            .isInstanceOf(IOException::class.java)
        val letter = store.list(10).single()
        assertThat(letter.arguments()).containsExactly("\"o-3\"")
        shipments.down = false

        val result = redrive.redrive(letter.id())

        assertThat(result.outcome()).isEqualTo(RedriveResult.Outcome.SUCCESS)
        assertThat(shipments.shipped).containsExactly("o-3 packed", "o-3 sent")
        assertThat(store.size()).isZero()
    }

    @Test
    fun `dead letter of a Flow failing after its first element again keeps its one letter`() {
        shipments.down = true
        assertThat(runCatching { runBlocking { shipments.track("o-4").toList() } }.exceptionOrNull())
            .isInstanceOf(IOException::class.java)
        val letter = store.list(10).single()
        shipments.down = false
        shipments.failAfterFirst = true

        val result = redrive.redrive(letter.id())

        assertThat(result.outcome()).isEqualTo(RedriveResult.Outcome.FAILURE)
        assertThat(shipments.shipped).containsExactly("o-4 packed")
        assertThat(store.list(10)).containsExactly(letter)
    }

    /** Ships orders, or fails while it is down. */
    @Component
    class Shipments {

        @Volatile
        var down = false

        @Volatile
        var failAfterFirst = false

        val shipped: MutableList<String> = CopyOnWriteArrayList()

        @Retryable(value = "tracking", maxAttempts = 1)
        suspend fun track(orderId: String): Flow<String> {
            yield()
            if (down) throw IOException("carrier down")
            return flow {
                shipped += "$orderId packed"
                emit("packed")
                if (failAfterFirst) throw IOException("carrier lost it")
                shipped += "$orderId sent"
                emit("sent")
            }
        }

        @Retryable(value = "shipments", maxAttempts = 1)
        suspend fun ship(orderId: String, quantity: Int): String {
            yield()
            if (down) throw IOException("carrier down")
            shipped += "$orderId x$quantity"
            return "shipped $orderId"
        }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Shipments::class)
    class TestApplication {

        @Bean
        fun virtualTimeSource() = VirtualTimeSource()

    }

}
