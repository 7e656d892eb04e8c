package dev.resilience.sample.simulator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * A payment gateway that, like real ones, makes at most one charge per idempotency key: a
 * request with a key it already charged gets that charge back, and a request with a key
 * it is still processing is refused as in progress (Stripe answers such a request 409). A
 * charge is recorded once its processing is over, so until then a lookup finds none. A
 * charge may be recorded {@link ChargeRecord#PENDING pending}: the gateway holds it and
 * settles it later, on its own; until then every request and lookup with its key gets it
 * back pending, from then on {@link ChargeRecord#SUCCEEDED succeeded}. It records every
 * charge. Thread-safe.
 */
public final class SimulatedGateway {

    private final String name;

    private final Clock clock;

    private final ConcurrentMap<String, Made> charges = new ConcurrentHashMap<>();

    private final Set<String> processing = ConcurrentHashMap.newKeySet();

    private final AtomicLong sequence = new AtomicLong();

    private final AtomicLong refusedInProgress = new AtomicLong();

    /**
     * Creates a gateway without charges.
     * @param name the gateway's name, also the prefix of its charge ids
     * @param clock the clock that stamps the charges and settles the pending ones
     */
    public SimulatedGateway(String name, Clock clock) {
        this.name = name;
        this.clock = clock;
    }

    /**
     * Charges an order, once per key: a new key is processed, then charged; a key charged
     * before gets its charge back, as it stands now; a key still being processed is
     * refused.
     * @param key the idempotency key
     * @param request the order and amount
     * @param processing the gateway's work on a new key, before the charge is recorded
     * @return the charge, and whether it had been made before under this key; empty when
     * the key is still being processed by another request
     */
    public Optional<Charged> charge(String key, ChargeRequest request, Processing processing) {
        Made earlier = this.charges.get(key);
        if (earlier != null) {
            return Optional.of(new Charged(current(earlier), true));
        }
        if (!this.processing.add(key)) {
            this.refusedInProgress.incrementAndGet();
            return Optional.empty();
        }
        try {
            Duration pendingFor = processing.process();
            AtomicBoolean created = new AtomicBoolean();
            Made made = this.charges.computeIfAbsent(key, (k) -> {
                created.set(true);
                Instant now = this.clock.instant();
                return new Made(
                        new ChargeRecord("ch_%s_%06d".formatted(this.name, this.sequence.incrementAndGet()), this.name,
                                request.orderId(), request.amountCents(), key, now, ChargeRecord.SUCCEEDED),
                        (pendingFor != null) ? now.plus(pendingFor) : null);
            });
            if (!created.get()) {
                return Optional.of(new Charged(current(made), true));
            }
            return Optional.of(new Charged(
                    (made.settlesAt() != null) ? made.charge().withStatus(ChargeRecord.PENDING) : made.charge(),
                    false));
        }
        finally {
            this.processing.remove(key);
        }
    }

    /**
     * Tells whether a charge request with a key is being processed: its charge is not
     * recorded yet, but will be.
     * @param key the idempotency key
     * @return {@code true} while the gateway is not finished with the key
     */
    public boolean isProcessing(String key) {
        return this.processing.contains(key);
    }

    /**
     * Finds the charge made under a key.
     * @param key the idempotency key
     * @return the charge as it stands now, or empty when none was made under this key
     */
    public Optional<ChargeRecord> find(String key) {
        return Optional.ofNullable(this.charges.get(key)).map(this::current);
    }

    /**
     * Returns how many charge requests were refused because their key was still being
     * processed.
     * @return the number of such requests since the start
     */
    public long refusedInProgress() {
        return this.refusedInProgress.get();
    }

    /**
     * Returns every charge made, pending ones included.
     * @return the charges as they stand now, oldest first
     */
    public List<ChargeRecord> charges() {
        return this.charges.values()
            .stream()
            .map(this::current)
            .sorted(Comparator.comparing(ChargeRecord::chargeId))
            .toList();
    }

    private ChargeRecord current(Made made) {
        Instant settlesAt = made.settlesAt();
        return (settlesAt != null && this.clock.instant().isBefore(settlesAt))
                ? made.charge().withStatus(ChargeRecord.PENDING) : made.charge();
    }

    /**
     * The gateway's work on a new charge.
     */
    @FunctionalInterface
    public interface Processing {

        /**
         * Processes a new charge before it is recorded.
         * @return how long the charge stays pending once recorded, or {@code null} when
         * it succeeds at once; a charge pending for no time is answered pending and found
         * succeeded by the next request
         */
        @Nullable Duration process();

    }

    /**
     * A charge and whether it was replayed.
     *
     * @param charge the charge
     * @param replayed {@code true} when the key had been charged before
     */
    public record Charged(ChargeRecord charge, boolean replayed) {
    }

    /**
     * A charge as recorded.
     *
     * @param charge the charge, settled
     * @param settlesAt when it stops being pending, or {@code null} when it never was
     */
    private record Made(ChargeRecord charge, @Nullable Instant settlesAt) {
    }

}
