package dev.resilience.webflux

import dev.resilience.aop.IdempotencyScopeResolver
import dev.resilience.core.time.VirtualTimeSource
import dev.resilience.web.IdempotencyProblemAdvice
import dev.resilience.web.IdempotentReplayHeaderListener
import java.time.Duration
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.boot.test.web.server.LocalServerPort
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import
import org.springframework.http.MediaType
import org.springframework.test.json.JsonCompareMode
import org.springframework.test.web.reactive.server.WebTestClient

/**
 * A WebFlux application (Reactor Netty on a random port) whose `@Idempotent` handlers are
 * `suspend` functions: the key header is checked before the body runs, and a replay is
 * marked with the replay header, as for a handler returning `Mono`.
 */
@SpringBootTest(
    classes = [WebFluxSuspendIdempotentEndpointTests.TestApplication::class],
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = ["spring.main.web-application-type=reactive"],
)
class WebFluxSuspendIdempotentEndpointTests @Autowired constructor(
    private val controller: SuspendOrderController,
) {

    @LocalServerPort
    private var port: Int = 0

    private lateinit var client: WebTestClient

    @BeforeEach
    fun reset() {
        controller.reset()
        client = WebTestClient.bindToServer().baseUrl("http://localhost:$port").responseTimeout(Duration.ofSeconds(30)).build()
    }

    @Test
    fun `missing key header is a bad request problem without running the handler`() {
        client.post().uri("/suspend-orders").contentType(MediaType.APPLICATION_JSON).bodyValue(BOOK).exchange()
            .expectStatus().isBadRequest
            .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .expectBody()
            .jsonPath("$.problem").isEqualTo(IdempotencyProblemAdvice.KEY_INVALID)
            .jsonPath("$.detail").isEqualTo("Idempotency key is missing: send it in the Idempotency-Key header")
        assertThat(controller.runs()).isZero()
    }

    @Test
    fun `replay returns the first status and body marked as replayed`() {
        val first = order("suspend-replay-1").expectStatus().isCreated
            .expectHeader().doesNotExist(IdempotentReplayHeaderListener.HEADER)
            .expectHeader().valueEquals("Location", "/suspend-orders/s-1")
            .expectBody().returnResult().responseBody!!

        order("suspend-replay-1").expectStatus().isCreated
            .expectHeader().valueEquals(IdempotentReplayHeaderListener.HEADER, "true")
            .expectHeader().valueEquals("Location", "/suspend-orders/s-1")
            .expectBody().json(String(first), JsonCompareMode.STRICT)
        assertThat(controller.runs()).isEqualTo(1)
    }

    private fun order(key: String): WebTestClient.ResponseSpec =
        client.post().uri("/suspend-orders").header("Idempotency-Key", key)
            .contentType(MediaType.APPLICATION_JSON).bodyValue(BOOK).exchange()

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(SuspendOrderController::class)
    class TestApplication {

        @Bean
        fun virtualTimeSource() = VirtualTimeSource()

        @Bean
        fun idempotencyScopeResolver() = IdempotencyScopeResolver.NONE

    }

    private companion object {
        const val BOOK = """{"item":"book"}"""
    }

}
