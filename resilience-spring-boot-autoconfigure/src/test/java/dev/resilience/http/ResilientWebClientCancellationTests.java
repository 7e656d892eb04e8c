package dev.resilience.http;

import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceHttpClientAutoConfiguration;
import dev.resilience.core.AttemptTimeoutException;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.CallStatistics;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.reactive.function.client.WebClientRequestException;

import static dev.resilience.http.VirtualWaits.passWait;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a {@code WebClient} call leaves behind when it is disposed, or when its attempts
 * time out: no further attempt, no running exchange, no timer, and no response whose body
 * was neither read nor released.
 */
class ResilientWebClientCancellationTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final ScriptedHttpServer server = ScriptedHttpServer.registered(1);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceHttpClientAutoConfiguration.class))
        .withBean(VirtualTimeSource.class, VirtualTimeSource::new)
        .withPropertyValues("resilience.http-client.enabled=true",
                "resilience.retry.instances.http-client.max-attempts=3",
                "resilience.retry.instances.http-client.delay=100ms",
                "resilience.retry.instances.http-client.jitter=none",
                "resilience.retry.instances.http-client.budget.enabled=false");

    @Test
    void cancellingInsideOnSubscribeStartsNoCallAndNoExchange() {
        this.runner.run((context) -> {
            VirtualTimeSource clock = context.getBean(VirtualTimeSource.class);
            TrackedExchanges exchanges = new TrackedExchanges(clock, 0, Duration.ZERO);
            server.replyAlways(200, 1);
            List<String> signals = new CopyOnWriteArrayList<>();

            prices(exchanges, context).subscribe(new BaseSubscriber<>() {

                @Override
                protected void hookOnSubscribe(Subscription subscription) {
                    signals.add("subscribed");
                    cancel();
                }

                @Override
                protected void hookFinally(SignalType type) {
                    signals.add(type.name());
                }

            });

            assertThat(signals).containsExactly("subscribed", "CANCEL");
            assertThat(exchanges.attempts()).as("exchanges started").isZero();
            CallStatistics statistics = context.getBean(ResilienceRegistry.class).statistics("http-client");
            assertThat(EnumSet.allOf(ExecutionStatus.class)).as("no call recorded")
                .allSatisfy((status) -> assertThat(statistics.calls(status)).as(status.name()).isZero());
        });
    }

    @Test
    void disposingDuringTheBackoffStopsFurtherAttemptsAndReleasesTheFailedResponse() {
        this.runner.run((context) -> {
            VirtualTimeSource clock = context.getBean(VirtualTimeSource.class);
            TrackedExchanges exchanges = new TrackedExchanges(clock, 0, Duration.ZERO);
            server.replyAlways(503, 3);
            Disposable call = prices(exchanges, context).subscribe();
            await().atMost(TIMEOUT).until(() -> clock.pendingTasks() == 1);

            call.dispose();

            assertThat(clock.pendingTasks()).as("backoff timer").isZero();
            clock.advance(Duration.ofSeconds(10));
            assertThat(server.received()).hasSize(1);
            awaitReleased(exchanges, 1);
        });
    }

    @Test
    void disposingDuringAnAttemptCancelsItsExchangeAndStartsNoOther() {
        this.runner.run((context) -> {
            VirtualTimeSource clock = context.getBean(VirtualTimeSource.class);
            TrackedExchanges exchanges = new TrackedExchanges(clock, 0, Duration.ZERO);
            CountDownLatch gate = new CountDownLatch(1);
            server.reply(503, "busy").replyWhenOpen(gate, 200, "late");
            try {
                Disposable call = prices(exchanges, context).subscribe();
                passWait(clock, server, Duration.ofMillis(100));
                await().atMost(TIMEOUT).until(() -> server.received().size() == 2);

                call.dispose();

                await().atMost(TIMEOUT).until(() -> exchanges.cancelled() == 1);
                assertThat(clock.pendingTasks()).isZero();
                clock.advance(Duration.ofSeconds(10));
                assertThat(server.received()).hasSize(2);
                awaitReleased(exchanges, 1);
            }
            finally {
                gate.countDown();
            }
        });
    }

    @Test
    void lateResponseOfATimedOutAttemptIsReleasedAndTheNextAttemptsResponseReturned() {
        this.runner.withPropertyValues("resilience.retry.instances.http-client.attempt-timeout=1s").run((context) -> {
            VirtualTimeSource clock = context.getBean(VirtualTimeSource.class);
            TrackedExchanges exchanges = new TrackedExchanges(clock, 1, Duration.ofSeconds(1));
            var body = prices(exchanges, context).toFuture();

            awaitResponses(exchanges, 1);
            passWait(clock, server, Duration.ofMillis(100));

            assertThat(Mono.fromFuture(body).block(TIMEOUT)).isEqualTo("ok");
            assertThat(server.received()).hasSize(2);
            awaitReleased(exchanges, 2);
        });
    }

    @Test
    void callEndingOnATimeoutReleasesEveryResponseAndSurfacesAsARequestErrorCausedByTheTimeout() {
        this.runner.withPropertyValues("resilience.retry.instances.http-client.attempt-timeout=1s").run((context) -> {
            VirtualTimeSource clock = context.getBean(VirtualTimeSource.class);
            TrackedExchanges exchanges = new TrackedExchanges(clock, 3, Duration.ofSeconds(1));
            var body = prices(exchanges, context).toFuture();

            awaitResponses(exchanges, 1);
            passWait(clock, server, Duration.ofMillis(100));
            awaitResponses(exchanges, 2);
            passWait(clock, server, Duration.ofMillis(200));

            assertThatExceptionOfType(WebClientRequestException.class)
                .isThrownBy(() -> Mono.fromFuture(body).block(TIMEOUT))
                .havingCause()
                .isInstanceOf(IOException.class)
                .withCauseInstanceOf(AttemptTimeoutException.class);
            assertThat(server.received()).hasSize(3);
            awaitReleased(exchanges, 3);
        });
    }

    private static Mono<String> prices(TrackedExchanges exchanges, AssertableApplicationContext context) {
        return exchanges.client(context).get().uri(server.url() + "/prices").retrieve().bodyToMono(String.class);
    }

    /**
     * Waits until the bodies of all the responses are consumed or released: releasing a
     * body reads it to its end, on the connector's threads.
     */
    private static void awaitReleased(TrackedExchanges exchanges, int count) {
        await().atMost(TIMEOUT)
            .untilAsserted(() -> assertThat(exchanges.responses()).hasSize(count)
                .allSatisfy((response) -> assertThat(response.done).as("released").isTrue()));
    }

    private static void awaitResponses(TrackedExchanges exchanges, int count) {
        await().atMost(TIMEOUT).until(() -> exchanges.responses().size() == count);
    }

}
