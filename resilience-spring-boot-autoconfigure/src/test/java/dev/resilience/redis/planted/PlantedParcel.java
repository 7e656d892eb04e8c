package dev.resilience.redis.planted;

import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.redis.decoding.Parcel;

/**
 * A subtype of {@link Parcel} outside its package and not allowed: what a planted Redis
 * entry names. Counts every instance made and every setter call, which must stay at zero.
 */
public class PlantedParcel implements Parcel {

    /** Instances made and setter calls, by any means. */
    public static final AtomicInteger touched = new AtomicInteger();

    private String label = "";

    /**
     * Creates a parcel, counted.
     */
    public PlantedParcel() {
        touched.incrementAndGet();
    }

    @Override
    public String label() {
        return this.label;
    }

    /**
     * Sets the label, counted.
     * @param label the label
     */
    public void setLabel(String label) {
        touched.incrementAndGet();
        this.label = label;
    }

}
