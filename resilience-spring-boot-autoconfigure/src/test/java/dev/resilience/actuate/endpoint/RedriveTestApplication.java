package dev.resilience.actuate.endpoint;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.time.VirtualTimeSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A web application whose {@code Warehouse#dispatch} fails while the warehouse is down,
 * and records the arguments of every attempt.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class RedriveTestApplication {

    @Bean
    VirtualTimeSource resilienceTimeSource() {
        return new VirtualTimeSource();
    }

    @Bean
    Dispatches dispatches() {
        return new Dispatches();
    }

    @Bean
    Warehouse warehouse(Dispatches dispatches) {
        return new Warehouse(dispatches);
    }

    /**
     * The warehouse's side: whether it is down, and the arguments it received.
     */
    static class Dispatches {

        final AtomicBoolean down = new AtomicBoolean();

        final List<List<Object>> received = new CopyOnWriteArrayList<>();

    }

    static class Warehouse {

        private final Dispatches dispatches;

        Warehouse(Dispatches dispatches) {
            this.dispatches = dispatches;
        }

        @Retryable("dispatch")
        public String dispatch(Parcel parcel, int copies) throws IOException {
            this.dispatches.received.add(List.of(parcel, copies));
            if (this.dispatches.down.get()) {
                throw new IOException("warehouse down");
            }
            return "dispatched " + parcel.id();
        }

    }

    record Parcel(String id, List<String> items, double weight) {
    }

}
