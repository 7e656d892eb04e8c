package dev.resilience.aop;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The default fingerprint must be equal for equal arguments
 * ({@code JsonArgumentRenderer}: "equal arguments give equal idempotency fingerprints on
 * every instance of an application"). It is a digest of the arguments' JSON in their
 * iteration order, so two equal maps or sets that iterate in another order give different
 * fingerprints, and the retry of a request gets {@code IdempotencyKeyMismatchException}
 * (HTTP 422) instead of its replay. A JSON object's members have no order (RFC 8259), so
 * a client that re-serializes its body on a retry sends an equal {@code Map} in another
 * order; {@code Set.of} and {@code Map.of} iterate in an order drawn at random per JVM,
 * so the same call made on two instances sharing a Redis store differs too.
 */
class DefaultFingerprintStabilityTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean(Orders.class);

    @Test
    void equalMapsInAnotherOrderReplayTheFirstCall() {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);
            Map<String, Integer> items = new LinkedHashMap<>();
            items.put("sku-1", 2);
            items.put("sku-2", 1);
            Map<String, Integer> sameItems = new LinkedHashMap<>();
            sameItems.put("sku-2", 1);
            sameItems.put("sku-1", 2);
            assertThat(sameItems).isEqualTo(items);

            String first = orders.place("key-1", items);
            Throwable retry = catchThrowable(() -> assertThat(orders.place("key-1", sameItems)).isEqualTo(first));

            assertThat(retry).as("retry with an equal map").isNull();
            assertThat(orders.runs()).isOne();
        });
    }

    @Test
    void equalSetsInAnotherOrderReplayTheFirstCall() {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);
            Set<String> tags = new TreeSet<>(List.of("gift", "express"));
            Set<String> sameTags = new LinkedHashSet<>(List.of("gift", "express"));
            assertThat(sameTags).isEqualTo(tags);

            String first = orders.tag("key-1", tags);
            Throwable retry = catchThrowable(() -> assertThat(orders.tag("key-1", sameTags)).isEqualTo(first));

            assertThat(retry).as("retry with an equal set").isNull();
            assertThat(orders.runs()).isOne();
        });
    }

    @Test
    void equalRequestsWithNestedMapsAndSetsInAnotherOrderReplayTheFirstCall() {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);
            Map<String, Line> lines = new LinkedHashMap<>();
            lines.put("sku-1", new Line(2, new TreeSet<>(List.of("fragile", "boxed"))));
            lines.put("sku-2", new Line(1, Set.of()));
            Map<String, Line> sameLines = new LinkedHashMap<>();
            sameLines.put("sku-2", new Line(1, new LinkedHashSet<>()));
            sameLines.put("sku-1", new Line(2, new LinkedHashSet<>(List.of("fragile", "boxed"))));

            String first = orders.submit("key-1", new Request("o-1", lines, Set.of("gift", "express")));
            String retry = orders.submit("key-1",
                    new Request("o-1", sameLines, new TreeSet<>(Set.of("express", "gift"))));

            assertThat(retry).isEqualTo(first);
            assertThat(orders.runs()).isOne();
        });
    }

    @Test
    void anotherNestedPayloadUnderTheSameKeyIsAMismatch() {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);
            orders.submit("key-1", new Request("o-1", Map.of("sku-1", new Line(2, Set.of("boxed"))), Set.of("gift")));

            assertThatExceptionOfType(IdempotencyKeyMismatchException.class).isThrownBy(() -> orders.submit("key-1",
                    new Request("o-1", Map.of("sku-1", new Line(2, Set.of("fragile"))), Set.of("gift"))));
            assertThat(orders.runs()).isOne();
        });
    }

    record Request(String orderId, Map<String, Line> lines, Set<String> tags) {
    }

    record Line(int quantity, Set<String> labels) {
    }

    static class Orders {

        private final AtomicInteger runs = new AtomicInteger();

        @Idempotent(key = "#key")
        public String place(String key, Map<String, Integer> items) {
            return "order-" + this.runs.incrementAndGet();
        }

        @Idempotent(key = "#key")
        public String tag(String key, Set<String> tags) {
            return "tagged-" + this.runs.incrementAndGet();
        }

        @Idempotent(key = "#key")
        public String submit(String key, Request request) {
            return "submitted-" + this.runs.incrementAndGet();
        }

        int runs() {
            return this.runs.get();
        }

    }

}
