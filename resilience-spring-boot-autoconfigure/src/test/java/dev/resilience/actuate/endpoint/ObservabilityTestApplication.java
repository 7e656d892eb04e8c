package dev.resilience.actuate.endpoint;

import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.time.VirtualTimeSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A web application with every endpoint exposed, a virtual clock, and annotated methods
 * whose outcomes are known in advance.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class ObservabilityTestApplication {

    @Bean
    VirtualTimeSource resilienceTimeSource() {
        return new VirtualTimeSource();
    }

    @Bean
    Payments payments() {
        return new Payments();
    }

    /**
     * {@code pay} fails on its first attempt only, {@code quote} always fails and falls
     * back, {@code ship} always fails and has no fallback.
     */
    static class Payments {

        private final AtomicInteger payAttempts = new AtomicInteger();

        @Retryable("payment")
        @CircuitGuarded("payment-gateway")
        @Fallback("payLater")
        public String pay(String orderId) {
            if (this.payAttempts.incrementAndGet() == 1) {
                throw new IllegalStateException("gateway timed out");
            }
            return "paid " + orderId;
        }

        String payLater(String orderId) {
            return "deferred " + orderId;
        }

        @Retryable("quote")
        @Fallback("cachedQuote")
        public String quote(String currency) {
            throw new IllegalStateException("oracle down");
        }

        String cachedQuote(String currency) {
            return "42 " + currency;
        }

        @Retryable("shipping")
        public String ship(String orderId) {
            throw new IllegalStateException("carrier down for " + orderId);
        }

        @Retryable("shipping")
        public String refund(Refund refund) {
            throw new IllegalStateException("refunds down");
        }

    }

    record Refund(String orderId, String password, Card card) {
    }

    record Card(String number) {
    }

}
