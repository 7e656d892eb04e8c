package dev.resilience.web

import dev.resilience.aop.IdempotencyScopeResolver
import dev.resilience.core.time.VirtualTimeSource
import dev.resilience.webflux.SuspendOrderController
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
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

/**
 * A Spring MVC application (Tomcat on a random port) whose `@Idempotent` handler is a
 * `suspend` function: the key header is checked before the body runs, and a replay is
 * marked with the replay header.
 */
@SpringBootTest(
    classes = [MvcSuspendIdempotentEndpointTests.TestApplication::class],
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = ["spring.main.web-application-type=servlet"],
)
class MvcSuspendIdempotentEndpointTests @Autowired constructor(
    private val controller: SuspendOrderController,
) {

    @LocalServerPort
    private var port: Int = 0

    private val client = HttpClient.newHttpClient()

    @BeforeEach
    fun reset() = controller.reset()

    @Test
    fun `missing key header is a bad request problem without running the handler`() {
        val response = post(null)

        assertThat(response.statusCode()).isEqualTo(400)
        assertThat(response.body()).contains("\"problem\":\"${IdempotencyProblemAdvice.KEY_INVALID}\"")
        assertThat(controller.runs()).isZero()
    }

    @Test
    fun `replay returns the first body marked as replayed`() {
        val first = post("mvc-replay-1")
        val replay = post("mvc-replay-1")

        assertThat(first.statusCode()).isEqualTo(201)
        assertThat(first.headers().firstValue(IdempotentReplayHeaderListener.HEADER)).isEmpty()
        assertThat(replay.statusCode()).isEqualTo(201)
        assertThat(replay.headers().firstValue(IdempotentReplayHeaderListener.HEADER)).hasValue("true")
        assertThat(replay.headers().firstValue("Location")).hasValue("/suspend-orders/s-1")
        assertThat(replay.body()).isEqualTo(first.body())
        assertThat(controller.runs()).isEqualTo(1)
    }

    private fun post(key: String?): HttpResponse<String> {
        val request = HttpRequest.newBuilder(URI.create("http://localhost:$port/suspend-orders"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("""{"item":"book"}"""))
        key?.let { request.header("Idempotency-Key", it) }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString())
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(SuspendOrderController::class)
    class TestApplication {

        @Bean
        fun virtualTimeSource() = VirtualTimeSource()

        @Bean
        fun idempotencyScopeResolver() = IdempotencyScopeResolver.NONE

    }

}
