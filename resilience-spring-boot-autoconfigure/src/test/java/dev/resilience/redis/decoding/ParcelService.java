package dev.resilience.redis.decoding;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.resilience.annotation.Idempotent;

/**
 * Sends parcels once per idempotency key; what it sends is chosen by the test.
 */
public class ParcelService {

    private final AtomicInteger runs = new AtomicInteger();

    private final Function<String, Parcel> parcels;

    /**
     * Creates the bean.
     * @param parcels makes the parcel of a label
     */
    public ParcelService(Function<String, Parcel> parcels) {
        this.parcels = parcels;
    }

    /**
     * Sends a parcel once per key.
     * @param label the label
     * @param key the idempotency key
     * @return the parcel sent
     */
    @Idempotent(key = "#key")
    public Parcel send(String label, String key) {
        this.runs.incrementAndGet();
        return this.parcels.apply(label);
    }

    /**
     * Returns how often a parcel was sent.
     * @return the number of runs
     */
    public int runs() {
        return this.runs.get();
    }

}
