package dev.resilience.sample.simulator;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A payment gateway that, like real ones, makes at most one charge per idempotency key: a
 * request with a key it already charged gets that charge back. It records every charge.
 * Thread-safe.
 */
public final class SimulatedGateway {

    private final String name;

    private final Clock clock;

    private final ConcurrentMap<String, ChargeRecord> charges = new ConcurrentHashMap<>();

    private final AtomicLong sequence = new AtomicLong();

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
     * Charges an order, once per key.
     * @param key the idempotency key
     * @param request the order and amount
     * @return the charge, and whether it had been made before under this key
     */
    public Charged charge(String key, ChargeRequest request) {
        AtomicBoolean created = new AtomicBoolean();
        ChargeRecord made = this.charges.computeIfAbsent(key, (k) -> {
            created.set(true);
            return new ChargeRecord("ch_%s_%06d".formatted(this.name, this.sequence.incrementAndGet()), this.name,
                    request.orderId(), request.amountCents(), key, this.clock.instant());
        });
        return new Charged(made, !created.get());
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
