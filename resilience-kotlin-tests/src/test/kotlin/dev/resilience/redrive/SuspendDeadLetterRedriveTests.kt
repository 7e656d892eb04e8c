package dev.resilience.redrive

import dev.resilience.annotation.Retryable
import dev.resilience.core.deadletter.DeadLetterStore
import dev.resilience.core.time.VirtualTimeSource
import java.io.IOException
import java.util.concurrent.CopyOnWriteArrayList
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

    /** Ships orders, or fails while it is down. */
    @Component
    class Shipments {

        @Volatile
        var down = false

        val shipped: MutableList<String> = CopyOnWriteArrayList()

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
