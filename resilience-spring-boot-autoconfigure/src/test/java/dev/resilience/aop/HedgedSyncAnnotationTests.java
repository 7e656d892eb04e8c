package dev.resilience.aop;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Hedged;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceMetricsAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A synchronous {@code @Hedged} method through the proxy, on a virtual clock that only
 * the tests move: the first try runs on the caller's thread, a hedge on the executor of
 * {@code resilience.async.executor}, which counts the tasks handed to it. The clock's
 * timers fire on the thread that advances it, so whether a hedge was handed over is known
 * when {@code advance} returns; real threads meet on latches with generous bounds.
 */
class HedgedSyncAnnotationTests {

    private static final long BOUND = 10;

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final ExecutorService callers = Executors.newCachedThreadPool();

    private final ExecutorService threads = Executors.newCachedThreadPool();

    private final AtomicInteger handedOver = new AtomicInteger();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(ResilienceAutoConfiguration.class, ResilienceMetricsAutoConfiguration.class))
        .withBean(VirtualTimeSource.class, () -> this.clock)
        .withBean(SimpleMeterRegistry.class)
        .withBean("hedgeExecutor", Executor.class, () -> (task) -> {
            this.handedOver.incrementAndGet();
            this.threads.execute(task);
        })
        .withPropertyValues("resilience.async.executor=hedgeExecutor")
        .withBean(Prices.class);

    @AfterEach
    void stopThreads() {
        this.callers.shutdownNow();
        this.threads.shutdownNow();
    }

    @Test
    void aFirstTryThatStallsIsOutrunByTheHedgeAndInterruptedAndTheCallerKeepsNoInterrupt() {
        this.contextRunner.run((context) -> {
            Prices prices = context.getBean(Prices.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            Future<String> call = this.callers.submit(() -> {
                String price = prices.price("EUR");
                return price + (Thread.currentThread().isInterrupted() ? " (interrupted)" : "");
            });
            assertThat(prices.firstEntered().await(BOUND, TimeUnit.SECONDS)).isTrue();

            this.clock.advance(Duration.ofMillis(49));
            assertThat(this.handedOver).as("no hedge before the delay").hasValue(0);
            this.clock.advance(Duration.ofMillis(1));

            assertThat(call.get(BOUND, TimeUnit.SECONDS)).isEqualTo("hedge EUR");
            assertThat(prices.firstInterrupted()).as("the stalled first try").isTrue();
            assertThat(this.handedOver).hasValue(1);
            assertThat(prices.tries()).hasValue(2);
            assertThat(hedges(meters, "won")).isEqualTo(1);
            assertThat(hedges(meters, "lost")).isZero();
        });
    }

    @Test
    void aFirstTryAnsweringBeforeTheDelayStartsNoHedge() {
        this.contextRunner.run((context) -> {
            Prices prices = context.getBean(Prices.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            Future<String> call = this.callers.submit(() -> prices.price("USD"));
            assertThat(prices.firstEntered().await(BOUND, TimeUnit.SECONDS)).isTrue();

            this.clock.advance(Duration.ofMillis(49));
            prices.answerFirst();
            assertThat(call.get(BOUND, TimeUnit.SECONDS)).isEqualTo("first USD");
            this.clock.advance(Duration.ofSeconds(1));

            assertThat(this.handedOver).as("no hedge, before or after the delay").hasValue(0);
            assertThat(prices.tries()).hasValue(1);
            assertThat(prices.firstInterrupted()).isFalse();
            assertThat(hedges(meters, "won")).isZero();
            assertThat(hedges(meters, "lost")).isZero();
        });
    }

    private static double hedges(MeterRegistry meters, String outcome) {
        return meters.get("resilience.hedges").tag("name", "prices").tag("outcome", outcome).functionCounter().count();
    }

    static class Prices {

        private final AtomicInteger tries = new AtomicInteger();

        private final CountDownLatch firstEntered = new CountDownLatch(1);

        private final CountDownLatch firstMayAnswer = new CountDownLatch(1);

        private final AtomicBoolean firstInterrupted = new AtomicBoolean();

        AtomicInteger tries() {
            return this.tries;
        }

        CountDownLatch firstEntered() {
            return this.firstEntered;
        }

        AtomicBoolean firstInterrupted() {
            return this.firstInterrupted;
        }

        void answerFirst() {
            this.firstMayAnswer.countDown();
        }

        @Hedged(name = "prices", delay = "50ms")
        public String price(String currency) throws InterruptedException {
            if (this.tries.incrementAndGet() > 1) {
                return "hedge " + currency;
            }
            this.firstEntered.countDown();
            try {
                this.firstMayAnswer.await();
                return "first " + currency;
            }
            catch (InterruptedException ex) {
                this.firstInterrupted.set(true);
                throw ex;
            }
        }

    }

}
