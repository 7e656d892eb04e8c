package dev.resilience.aop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.circuitbreaker.CallNotPermittedException;

/**
 * A bean whose methods carry the annotations, over a scripted downstream: each call to
 * the downstream takes the next scripted failure, or succeeds when none is left.
 */
class PaymentTestService {

    private final AtomicInteger downstreamCalls = new AtomicInteger();

    private final List<String> fallbacksTried = Collections.synchronizedList(new ArrayList<>());

    private final List<Exception> script = Collections.synchronizedList(new ArrayList<>());

    void failNext(Exception... failures) {
        this.script.addAll(List.of(failures));
    }

    int downstreamCalls() {
        return this.downstreamCalls.get();
    }

    List<String> fallbacksTried() {
        return List.copyOf(this.fallbacksTried);
    }

    void reset() {
        this.downstreamCalls.set(0);
        this.fallbacksTried.clear();
        this.script.clear();
    }

    private String downstream(String orderId) throws Exception {
        this.downstreamCalls.incrementAndGet();
        if (!this.script.isEmpty()) {
            throw this.script.remove(0);
        }
        return "receipt:" + orderId;
    }

    @Retryable(value = "payment", maxAttempts = 2, delay = "100ms")
    public String pay(String orderId) throws Exception {
        return downstream(orderId);
    }

    @Retryable(value = "refund", maxAttempts = 2, delay = "100ms", abortOn = IllegalArgumentException.class)
    public String refund(String orderId) throws Exception {
        return downstream(orderId);
    }

    @Fallback({ "payOnTimeout", "payWithBackup", "defer" })
    @CircuitGuarded("gateway")
    @Retryable(value = "guarded", maxAttempts = 3, delay = "10ms")
    public String guardedPay(String orderId) throws Exception {
        return downstream(orderId);
    }

    String payOnTimeout(String orderId, java.util.concurrent.TimeoutException error) {
        this.fallbacksTried.add("payOnTimeout");
        return "timeout-fallback:" + orderId;
    }

    private String payWithBackup(String orderId, Exception error) throws IOException {
        this.fallbacksTried.add("payWithBackup:" + error.getClass().getSimpleName());
        if (error instanceof CallNotPermittedException) {
            return "backup:" + orderId;
        }
        throw new IOException("backup down");
    }

    String defer(String orderId) {
        this.fallbacksTried.add("defer");
        return "deferred:" + orderId;
    }

    @Retryable(value = "envelope", maxAttempts = 3, delay = "10ms")
    public ExecutionResult<String> payWithResult(String orderId) throws Exception {
        return ExecutionResult.success(downstream(orderId));
    }

    @Retryable(value = "async", maxAttempts = 3, delay = "1s")
    public CompletableFuture<String> payAsync(String orderId) {
        try {
            return CompletableFuture.completedFuture(downstream(orderId));
        }
        catch (Exception ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    @Idempotent(key = "#key")
    @Retryable(value = "idempotent", maxAttempts = 2, delay = "10ms")
    public String payOnce(String orderId, long amountCents, String key) throws Exception {
        return downstream(orderId) + ":" + amountCents;
    }

    @Idempotent(key = "#key")
    public String payRequest(PaymentRequest request, String key) throws Exception {
        return downstream(request.getOrderId()) + ":" + request.getAmountCents();
    }

    @Retryable(value = "dead-lettered", maxAttempts = 2, delay = "1ms")
    public String payAndFail(PaymentRequest request) throws Exception {
        this.downstreamCalls.incrementAndGet();
        throw new java.io.IOException("gateway down for " + request.getOrderId());
    }

    public String unprotected(String orderId) throws Exception {
        return downstream(orderId);
    }

    /**
     * A request without {@code toString()}: its identity must not leak into fingerprints.
     */
    static final class PaymentRequest {

        private final String orderId;

        private final long amountCents;

        PaymentRequest(String orderId, long amountCents) {
            this.orderId = orderId;
            this.amountCents = amountCents;
        }

        public String getOrderId() {
            return this.orderId;
        }

        public long getAmountCents() {
            return this.amountCents;
        }

    }

}
