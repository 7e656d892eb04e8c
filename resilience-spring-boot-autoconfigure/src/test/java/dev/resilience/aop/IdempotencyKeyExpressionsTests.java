package dev.resilience.aop;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Keys and fingerprints worked out through the proxy. Expressions that fail at run time
 * refuse the call with an {@link IdempotencyKeyException}: the method does not run, the
 * call's observation ends, and a payload never takes another payload's result. Arguments
 * that cannot be rendered as JSON still give equal fingerprints for equal calls.
 */
@ExtendWith(OutputCaptureExtension.class)
class IdempotencyKeyExpressionsTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withUserConfiguration(ObservedCalls.class)
        .withBean("orders", Orders.class);

    @Test
    void keyExpressionCallingAMethodThatThrowsRefusesTheCallWithoutRunningIt() {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);

            assertThatExceptionOfType(IdempotencyKeyException.class)
                .isThrownBy(() -> orders.place(new Order(null, "secret-item", List.of("sku-1"))))
                .withMessage("Idempotency key of Orders#place cannot be worked out: its key expression threw "
                        + "IllegalStateException")
                .withMessageNotContaining("secret-item");
            assertThat(orders.runs()).isZero();
            OpenObservations observations = context.getBean(OpenObservations.class);
            assertThat(observations.started()).isEqualTo(1);
            assertThat(observations.open()).isEmpty();
        });
    }

    @Test
    void fingerprintExpressionThatFailsForAPayloadRefusesItAndNeverReplaysAnotherPayloadsResult() {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);

            assertThatExceptionOfType(IdempotencyKeyException.class)
                .isThrownBy(() -> orders.ship("ship-1", new Order("ship-1", "lamp", List.of())))
                .withMessage("Idempotency key of Orders#ship cannot be worked out: its fingerprint expression threw "
                        + "SpelEvaluationException");
            assertThatExceptionOfType(IdempotencyKeyException.class)
                .isThrownBy(() -> orders.ship("ship-1", new Order("ship-1", "book", List.of())));
            assertThat(orders.runs()).isZero();
            assertThat(orders.ship("ship-1", new Order("ship-1", "book", List.of("sku-9")))).isEqualTo("shipped book");
            assertThat(orders.runs()).isEqualTo(1);
            OpenObservations observations = context.getBean(OpenObservations.class);
            assertThat(observations.started()).isEqualTo(3);
            assertThat(observations.open()).isEmpty();
        });
    }

    @Test
    void argumentJacksonCannotWriteContributesItsTypeNameSoAByteIdenticalRetryReplays(CapturedOutput output) {
        this.contextRunner.run((context) -> {
            Orders orders = context.getBean(Orders.class);

            String first = orders.pack("pack-1", new Parcel("lamp"));
            String retry = orders.pack("pack-1", new Parcel("lamp"));

            assertThat(retry).isEqualTo(first);
            assertThat(orders.runs()).isEqualTo(1);
            String warning = "Arguments of type " + Parcel.class.getName() + " cannot be written field by field";
            assertThat(output.getOut().split(java.util.regex.Pattern.quote(warning), -1)).hasSize(2);
        });
    }

    /**
     * A parcel Jackson cannot write, neither by its getters (one throws) nor by its
     * fields (they make a cycle), without {@code toString()}: each instance's identity
     * must stay out of fingerprints.
     */
    static final class Parcel {

        private final String item;

        private final Box box = new Box(this);

        Parcel(String item) {
            this.item = item;
        }

        public String getItem() {
            return this.item;
        }

        public String getWeight() {
            throw new UnsupportedOperationException("not weighed yet");
        }

    }

    /**
     * What a parcel is packed in, which refers back to it: its fields make a cycle.
     */
    static final class Box {

        private final Parcel parcel;

        Box(Parcel parcel) {
            this.parcel = parcel;
        }

    }

    /**
     * A payload whose key is worked out by a method that throws when there is none.
     *
     * @param key the client's key, if any
     * @param item what is ordered
     * @param skus the stock units, the first of which identifies the shipment
     */
    record Order(String key, String item, List<String> skus) {

        public String requireKey() {
            if (this.key == null) {
                throw new IllegalStateException("order of " + this.item + " has no key");
            }
            return this.key;
        }
    }

    static class Orders {

        private final AtomicInteger runs = new AtomicInteger();

        int runs() {
            return this.runs.get();
        }

        @Idempotent(key = "#order.requireKey()")
        public String place(Order order) {
            this.runs.incrementAndGet();
            return "placed " + order.item();
        }

        @Idempotent(key = "#key")
        public String pack(String key, Parcel parcel) {
            return "packed " + parcel.getItem() + " #" + this.runs.incrementAndGet();
        }

        @Idempotent(key = "#key", fingerprint = "#order.skus()[0]")
        public String ship(String key, Order order) {
            this.runs.incrementAndGet();
            return "shipped " + order.item();
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class ObservedCalls {

        @Bean
        OpenObservations openObservations() {
            return new OpenObservations();
        }

        @Bean
        ObservationRegistry observationRegistry(OpenObservations openObservations) {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(openObservations);
            return registry;
        }

    }

    /**
     * Observes every observation made in the context and keeps those not yet stopped.
     */
    static class OpenObservations implements ObservationHandler<Observation.Context> {

        private final Set<Observation.Context> open = ConcurrentHashMap.newKeySet();

        private final AtomicInteger started = new AtomicInteger();

        @Override
        public void onStart(Observation.Context context) {
            this.started.incrementAndGet();
            this.open.add(context);
        }

        @Override
        public void onStop(Observation.Context context) {
            this.open.remove(context);
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }

        int started() {
            return this.started.get();
        }

        Set<Observation.Context> open() {
            return Set.copyOf(this.open);
        }

    }

}
