package dev.resilience.aop

import dev.resilience.annotation.CircuitGuarded
import dev.resilience.annotation.Fallback
import dev.resilience.annotation.Retryable
import java.io.IOException
import java.math.BigDecimal
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.annotation.Import
import org.springframework.stereotype.Service

/**
 * The README's Kotlin quick start, run as it is written: its YAML (`quickstart.yml`), the
 * real clock and executor, and `runBlocking` as the caller. The outcomes do not depend on
 * timing: the oracle's answers are scripted per invocation.
 */
@SpringBootTest(classes = [KotlinQuickStartTests.QuickStartApplication::class], properties = ["spring.config.name=quickstart"])
class KotlinQuickStartTests @Autowired constructor(
    private val prices: PriceService,
    private val oracle: PriceOracle,
) {

    @Test
    fun `oracle failing twice is retried and its third answer returned`() = runBlocking<Unit> {
        oracle.failNext(2)

        assertThat(prices.price("ETH")).isEqualByComparingTo("3100")
        assertThat(oracle.invocations()).isEqualTo(3)
    }

    @Test
    fun `oracle failing every attempt is answered by the last known price`() = runBlocking<Unit> {
        oracle.failNext(3)

        assertThat(prices.price("ETH")).isEqualByComparingTo("3000")
        assertThat(oracle.invocations()).isEqualTo(3)
    }

    /** A price oracle that fails as many invocations as the test says, then answers. */
    @Service
    class PriceOracle {

        private val failures = AtomicInteger()

        private val invocations = AtomicInteger()

        fun failNext(count: Int) {
            failures.set(count)
            invocations.set(0)
        }

        fun invocations() = invocations.get()

        suspend fun fetch(symbol: String): BigDecimal {
            invocations.incrementAndGet()
            delay(5)
            if (failures.getAndDecrement() > 0) throw IOException("price oracle unavailable for $symbol")
            return BigDecimal("3100")
        }

    }

    @Service
    class PriceService(private val oracle: PriceOracle) {

        @Retryable("prices")
        @CircuitGuarded("price-oracle")
        @Fallback("lastKnownPrice")
        suspend fun price(symbol: String): BigDecimal = oracle.fetch(symbol)

        @Suppress("unused", "UNUSED_PARAMETER")
        private suspend fun lastKnownPrice(symbol: String, failure: IOException): BigDecimal = BigDecimal("3000")

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(PriceService::class, PriceOracle::class)
    class QuickStartApplication

}
