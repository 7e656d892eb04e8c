package dev.resilience.redis;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.core.ExecutionResult;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.PageRequest;

/**
 * An idempotent bean whose methods declare the return types an application uses for
 * results that come in several shapes: a sealed interface, an abstract class, a Spring
 * Data page, an {@code ExecutionResult} envelope, and a result no JSON mapper can write.
 * Counts how often each method body runs.
 */
public class Shipments {

    private final AtomicInteger runs = new AtomicInteger();

    /**
     * Quotes a parcel.
     * @param key the idempotency key
     * @return a record implementing the sealed interface
     */
    @Idempotent(key = "#key")
    public Parcel parcel(String key) {
        this.runs.incrementAndGet();
        return new Parcel.Letter("L-" + key, 20);
    }

    /**
     * Books a carrier.
     * @param key the idempotency key
     * @return a subclass of the abstract class
     */
    @Idempotent(key = "#key")
    public Booking booking(String key) {
        this.runs.incrementAndGet();
        TruckBooking booking = new TruckBooking();
        booking.setReference("B-" + key);
        booking.setPlate("HH-RS-17");
        return booking;
    }

    /**
     * Lists the receipts of a shipment.
     * @param key the idempotency key
     * @return a page of receipts
     */
    @Idempotent(key = "#key")
    public Page<Receipt> receipts(String key) {
        this.runs.incrementAndGet();
        return new PageImpl<>(List.of(new Receipt("o-1", 100, Instant.EPOCH)), PageRequest.of(0, 10), 1);
    }

    /**
     * Quotes a parcel, answering with the whole envelope.
     * @param key the idempotency key
     * @return the envelope of a parcel
     */
    @Idempotent(key = "#key")
    public ExecutionResult<Parcel> parcelResult(String key) {
        this.runs.incrementAndGet();
        return ExecutionResult.success(new Parcel.Crate("C-" + key, 3));
    }

    /**
     * Ships an order, returning a label whose tracking number cannot be read.
     * @param key the idempotency key
     * @return a label no JSON mapper can write
     */
    @Idempotent(key = "#key")
    public Label label(String key) {
        this.runs.incrementAndGet();
        return new Label("LBL-" + key);
    }

    /**
     * Returns how often a method body ran.
     * @return the number of runs
     */
    public int runs() {
        return this.runs.get();
    }

    /** What is shipped: a sealed interface with record implementations. */
    public sealed interface Parcel permits Parcel.Letter, Parcel.Crate {

        /**
         * A letter.
         *
         * @param id its id
         * @param grams its weight
         */
        record Letter(String id, int grams) implements Parcel {
        }

        /**
         * A crate.
         *
         * @param id its id
         * @param pallets its size
         */
        record Crate(String id, int pallets) implements Parcel {
        }

    }

    /** A carrier booking: an abstract class with a JavaBean subclass. */
    public abstract static class Booking {

        private String reference;

        public String getReference() {
            return this.reference;
        }

        public void setReference(String reference) {
            this.reference = reference;
        }

    }

    /** A booking of a truck. */
    public static class TruckBooking extends Booking {

        private String plate;

        public String getPlate() {
            return this.plate;
        }

        public void setPlate(String plate) {
            this.plate = plate;
        }

    }

    /**
     * A shipping label whose tracking number getter fails, as a detached lazy proxy does.
     */
    public static final class Label {

        private final String id;

        Label(String id) {
            this.id = id;
        }

        public String getId() {
            return this.id;
        }

        public String getTrackingNumber() {
            throw new IllegalStateException("tracking number is not loaded");
        }

    }

}
