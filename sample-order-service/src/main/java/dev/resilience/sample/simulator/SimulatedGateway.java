package dev.resilience.sample.simulator;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A payment gateway that, like real ones, makes at most one charge per idempotency key: a
 * request with a key it already charged gets that charge back, and a request with a key
 * it is still processing is refused as in progress (Stripe answers such a request 409). A
 * charge is recorded once its processing is over, so until then a lookup finds none. It
 * records every charge. Thread-safe.
 */
public final class SimulatedGateway {

    private final String name;

    private final Clock clock;

    private final ConcurrentMap<String, ChargeRecord> charges = new ConcurrentHashMap<>();

    private final Set<String> processing = ConcurrentHashMap.newKeySet();

    private final AtomicLong sequence = new AtomicLong();

    private final AtomicLong refusedInProgress = new AtomicLong();

    /**
     * Creates a gateway without charges.
     * @param name the gateway's name, also the prefix of its charge ids
     * @param clock the clock that stamps the charges
     */
    public SimulatedGateway(String name, Clock clock) {
        this.name = name;
        this.clock = clock;
    }

    /**
     * Charges an order, once per key: a new key is processed, then charged; a key charged
     * before gets its charge back; a key still being processed is refused.
     * @param key the idempotency key
     * @param request the order and amount
     * @param processing the gateway's work on a new key, before the charge is recorded
     * @return the charge, and whether it had been made before under this key; empty when
     * the key is still being processed by another request
     */
    public Optional<Charged> charge(String key, ChargeRequest request, Runnable processing) {
        ChargeRecord earlier = this.charges.get(key);
        if (earlier != null) {
            return Optional.of(new Charged(earlier, true));
        }
        if (!this.processing.add(key)) {
            this.refusedInProgress.incrementAndGet();
            return Optional.empty();
        }
        try {
            processing.run();
            AtomicBoolean created = new AtomicBoolean();
            ChargeRecord made = this.charges.computeIfAbsent(key, (k) -> {
                created.set(true);
                return new ChargeRecord("ch_%s_%06d".formatted(this.name, this.sequence.incrementAndGet()), this.name,
                        request.orderId(), request.amountCents(), key, this.clock.instant());
            });
            return Optional.of(new Charged(made, !created.get()));
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
     * @return the charge, or empty when none was made under this key
     */
    public Optional<ChargeRecord> find(String key) {
        return Optional.ofNullable(this.charges.get(key));
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
     * Returns every charge made.
     * @return the charges, oldest first
     */
    public List<ChargeRecord> charges() {
        List<ChargeRecord> all = new ArrayList<>(this.charges.values());
        all.sort(Comparator.comparing(ChargeRecord::chargeId));
        return all;
    }

    /**
     * A charge and whether it was replayed.
     *
     * @param charge the charge
     * @param replayed {@code true} when the key had been charged before
     */
    public record Charged(ChargeRecord charge, boolean replayed) {
    }

}
