package dev.resilience.redrive;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.DeadLetterRedriveAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceMetricsAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterSanitizer;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.redrive.RedriveResult.DeadLetterState;
import dev.resilience.redrive.RedriveResult.Outcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.ser.std.StdSerializer;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link DeadLetterRedrive}: a dead letter written by a failing call through the proxy is
 * re-driven through the proxy with its arguments read back.
 */
class DeadLetterRedriveTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, ResilienceMetricsAutoConfiguration.class,
                DeadLetterRedriveAutoConfiguration.class))
        .withPropertyValues("resilience.retry.defaults.jitter=none", "resilience.retry.instances.orders.max-attempts=2",
                "resilience.dead-letter.max-argument-size=160B")
        .withBean(TimeSource.class, VirtualTimeSource::new)
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(Downstream.class, Downstream::new)
        .withBean(Orders.class);

    @Test
    void recoveredDownstreamRunsTheMethodWithEqualArgumentsAndDeletesTheLetter() {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);
            Downstream downstream = context.getBean(Downstream.class);
            assertThat(AopUtils.isAopProxy(orders)).isTrue();
            Order order = new Order("o-1", List.of(new Line("sku-1", 2), new Line("sku-2", 1)), null);
            downstream.down.set(true);
            assertThatExceptionOfType(IOException.class)
                .isThrownBy(() -> orders.place(order, List.of(3L, 4L), new BigDecimal("12.50"), null));
            DeadLetter letter = onlyLetter(context);
            downstream.calls.clear();
            downstream.down.set(false);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result).isEqualTo(
                    new RedriveResult(letter.id(), Outcome.SUCCESS, "SUCCESS", 1, null, null, DeadLetterState.DELETED));
            assertThat(downstream.calls)
                .containsExactly(List.of(order, List.of(3L, 4L), new BigDecimal("12.50"), "<null>"));
            assertThat(context.getBean(DeadLetterStore.class).size()).isZero();
            assertThat(redriven(context, "success")).isEqualTo(1.0);
        });
    }

    @Test
    void failingAgainKeepsTheOriginalLetterOnlyAndReturnsTheOutcome() {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);
            Downstream downstream = context.getBean(Downstream.class);
            downstream.down.set(true);
            Order order = new Order("o-2", List.of(), "fragile");
            assertThatExceptionOfType(IOException.class)
                .isThrownBy(() -> orders.place(order, List.of(), BigDecimal.ONE, "n"));
            DeadLetter letter = onlyLetter(context);
            downstream.calls.clear();

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result).isEqualTo(new RedriveResult(letter.id(), Outcome.FAILURE, "ERROR", 2,
                    IOException.class.getName(), "down", DeadLetterState.KEPT));
            assertThat(downstream.calls).hasSize(2);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            assertThat(store.list(10)).containsExactly(letter);
            assertThat(redriven(context, "failure")).isEqualTo(1.0);
        });
    }

    @Test
    void truncatedArgumentIsRefusedWithoutRunningTheMethodAndTheLetterIsKept() {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);
            Downstream downstream = context.getBean(Downstream.class);
            downstream.down.set(true);
            String longNote = "x".repeat(200);
            assertThatExceptionOfType(IOException.class)
                .isThrownBy(() -> orders.place(new Order("o-3", List.of(), null), List.of(), BigDecimal.ONE, longNote));
            DeadLetter letter = onlyLetter(context);
            downstream.calls.clear();
            downstream.down.set(false);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result).isEqualTo(new RedriveResult(letter.id(), Outcome.UNREADABLE, null, null, null,
                    "Dead letter of Orders#place cannot be re-driven: argument 3 was truncated when stored "
                            + "(resilience.dead-letter.max-argument-size); its whole value is not known",
                    DeadLetterState.KEPT));
            assertThat(downstream.calls).isEmpty();
            assertThat(context.getBean(DeadLetterStore.class).list(10)).containsExactly(letter);
            assertThat(redriven(context, "unreadable")).isEqualTo(1.0);
        });
    }

    @Test
    void maskedArgumentIsRefusedWithoutRunningTheMethodAndTheLetterIsKept() {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);
            Downstream downstream = context.getBean(Downstream.class);
            downstream.down.set(true);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> orders.charge(new Card("4111", "c-1")));
            DeadLetter letter = onlyLetter(context);
            assertThat(letter.arguments()).containsExactly("{\"holder\":\"c-1\",\"number\":\"******\"}");
            downstream.calls.clear();
            downstream.down.set(false);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(result.outcome()).isEqualTo(Outcome.UNREADABLE);
            assertThat(result.error()).isEqualTo("Dead letter of Orders#charge cannot be re-driven: argument 0 holds "
                    + "a masked value (******); its real value is not known");
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(downstream.calls).isEmpty();
            assertThat(context.getBean(DeadLetterStore.class).list(10)).containsExactly(letter);
        });
    }

    @Test
    void argumentOfAMethodWhoseTypeChangedIsRefused() {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);
            Downstream downstream = context.getBean(Downstream.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            DeadLetter stored = new DeadLetter("dl-1", "orders", "Orders#place",
                    List.of("{\"id\":\"o-1\",\"lines\":[],\"note\":null}", "[\"not a number\"]", "1", "null"),
                    "java.io.IOException", "down", 2, java.time.Instant.EPOCH, java.time.Instant.EPOCH,
                    dev.resilience.core.ExecutionStatus.ERROR);
            store.write(stored);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive("dl-1");

            assertThat(result.outcome()).isEqualTo(Outcome.UNREADABLE);
            assertThat(result.error()).startsWith(
                    "Dead letter of Orders#place cannot be re-driven: argument 1 does not read as java.util.List<java.lang.Long>");
            assertThat(downstream.calls).isEmpty();
            assertThat(store.find("dl-1")).contains(stored);
        });
    }

    @Test
    void letterOfAMethodThatNoLongerExistsIsRefused() {
        this.contextRunner.run((context) -> {
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            DeadLetter stored = new DeadLetter("dl-2", "orders", "Orders#removed", List.of("1"), "java.io.IOException",
                    "down", 2, java.time.Instant.EPOCH, java.time.Instant.EPOCH,
                    dev.resilience.core.ExecutionStatus.ERROR);
            store.write(stored);

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive("dl-2");

            assertThat(result).isEqualTo(new RedriveResult("dl-2", Outcome.UNREADABLE, null, null, null,
                    "Dead letter of Orders#removed cannot be re-driven: no annotated method Orders#removed with 1 "
                            + "parameters exists any more",
                    DeadLetterState.KEPT));
            assertThat(store.find("dl-2")).contains(stored);
        });
    }

    @Test
    void unknownIdIsNotFound() {
        this.contextRunner.run((context) -> {
            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive("nope");

            assertThat(result).isEqualTo(new RedriveResult("nope", Outcome.NOT_FOUND, null, null, null,
                    "No dead letter has the id nope", DeadLetterState.NONE));
            assertThat(redriven(context, "not_found")).isEqualTo(1.0);
        });
    }

    @Test
    void twoThreadsRedrivingOneLetterRunTheMethodOnce() {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);
            Downstream downstream = context.getBean(Downstream.class);
            downstream.down.set(true);
            Order order = new Order("o-4", List.of(), null);
            assertThatExceptionOfType(IOException.class)
                .isThrownBy(() -> orders.place(order, List.of(), BigDecimal.TEN, null));
            DeadLetter letter = onlyLetter(context);
            downstream.calls.clear();
            downstream.down.set(false);
            downstream.entered = new CountDownLatch(1);
            downstream.gate = new CountDownLatch(1);
            DeadLetterRedrive redrive = context.getBean(DeadLetterRedrive.class);
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                Future<RedriveResult> first = threads.submit(() -> redrive.redrive(letter.id()));
                assertThat(downstream.entered.await(10, TimeUnit.SECONDS)).isTrue();
                Future<RedriveResult> second = threads.submit(() -> redrive.redrive(letter.id()));
                RedriveResult refused = second.get(10, TimeUnit.SECONDS);
                downstream.gate.countDown();
                RedriveResult ran = first.get(10, TimeUnit.SECONDS);

                assertThat(ran.outcome()).isEqualTo(Outcome.SUCCESS);
                assertThat(refused.outcome()).isEqualTo(Outcome.IN_PROGRESS);
                assertThat(redriven(context, "in_progress")).isEqualTo(1.0);
                assertThat(refused.deadLetter()).isEqualTo(DeadLetterState.NONE);
                assertThat(downstream.calls).hasSize(1);
                assertThat(context.getBean(DeadLetterStore.class).size()).isZero();
            }
            finally {
                threads.shutdownNow();
            }
        });
    }

    private static DeadLetter onlyLetter(AssertableApplicationContext context) {
        List<DeadLetter> letters = context.getBean(DeadLetterStore.class).list(10);
        assertThat(letters).hasSize(1);
        return letters.get(0);
    }

    private static double redriven(AssertableApplicationContext context, String outcome) {
        return context.getBean(MeterRegistry.class)
            .get("resilience.deadletters.redriven")
            .tag("outcome", outcome)
            .counter()
            .count();
    }

    record Line(String sku, int quantity) {
    }

    record Order(String id, List<Line> lines, @Nullable String note) {
    }

    record Card(@JsonSerialize(using = Masking.class) String number, String holder) {
    }

    static final class Masking extends StdSerializer<String> {

        Masking() {
            super(String.class);
        }

        @Override
        public void serialize(String value, JsonGenerator generator, SerializationContext context) {
            generator.writeString(DeadLetterSanitizer.MASK);
        }

    }

    static class Downstream {

        final java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean();

        final List<List<Object>> calls = new CopyOnWriteArrayList<>();

        volatile CountDownLatch entered = new CountDownLatch(1);

        volatile @Nullable CountDownLatch gate;

    }

    static class Orders {

        private final Downstream downstream;

        Orders(Downstream downstream) {
            this.downstream = downstream;
        }

        @Retryable("orders")
        public String place(Order order, List<Long> quantities, BigDecimal amount, @Nullable String note)
                throws IOException, InterruptedException {
            List<Object> call = new ArrayList<>();
            call.add(order);
            call.add(quantities);
            call.add(amount);
            call.add((note != null) ? note : "<null>");
            this.downstream.calls.add(call);
            this.downstream.entered.countDown();
            CountDownLatch gate = this.downstream.gate;
            if (gate != null) {
                gate.await(10, TimeUnit.SECONDS);
            }
            if (this.downstream.down.get()) {
                throw new IOException("down");
            }
            return "placed:" + order.id();
        }

        @Retryable("orders")
        public String charge(Card card) throws IOException {
            this.downstream.calls.add(List.of(card));
            if (this.downstream.down.get()) {
                throw new IOException("down");
            }
            return "charged";
        }

    }

}
