package dev.resilience.redis;

import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;

/**
 * A payment bean as an application would write it: each charge takes about 50 ms and is
 * counted in a counter that the test shares between application contexts.
 */
public class PaymentService {

    private final AtomicInteger executions;

    private volatile CountDownLatch hold = new CountDownLatch(0);

    private volatile CountDownLatch started = new CountDownLatch(1);

    /**
     * Creates the bean.
     * @param executions counts the charges, shared by every context of a test
     */
    public PaymentService(AtomicInteger executions) {
        this.executions = executions;
    }

    /**
     * Charges an order once per idempotency key.
     * @param orderId the order
     * @param amountCents the amount
     * @param key the idempotency key
     * @return the receipt
     * @throws InterruptedException if interrupted while charging
     */
    @Idempotent(key = "#key")
    public Receipt pay(String orderId, long amountCents, String key) throws InterruptedException {
        this.executions.incrementAndGet();
        this.started.countDown();
        Thread.sleep(50);
        this.hold.await();
        return new Receipt(orderId, amountCents, Instant.now());
    }

    /**
     * Calls a downstream that is always down, so that every call ends as a dead letter.
     * @param orderId the order
     */
    @Retryable(value = "notify", maxAttempts = 2, delay = "10ms")
    public void notifyShipping(String orderId) {
        throw new IllegalStateException("shipping is down");
    }

    /**
     * Makes the next charges block after they started until the returned latch is
     * released.
     * @return the latch that lets them finish
     */
    public CountDownLatch holdCharges() {
        this.started = new CountDownLatch(1);
        this.hold = new CountDownLatch(1);
        return this.hold;
    }

    /**
     * Waits until a held charge started.
     * @throws InterruptedException if interrupted
     */
    public void awaitChargeStarted() throws InterruptedException {
        this.started.await();
    }

}
