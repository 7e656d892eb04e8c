package dev.resilience.sample.simulator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A simulated gateway's charges per key, settled at once or held pending until their
 * settle time on the gateway's clock, which the tests move by hand.
 */
class SimulatedGatewayTests {

    private static final ChargeRequest REQUEST = new ChargeRequest(42, 1250, "tok_visa");

    private final MovingClock clock = new MovingClock();

    private final SimulatedGateway gateway = new SimulatedGateway("primary", this.clock);

    @Test
    void aChargeNotLeftPendingSucceedsAtOnce() {
        SimulatedGateway.Charged charged = this.gateway.charge("order-42", REQUEST, () -> null).orElseThrow();

        assertThat(charged.replayed()).isFalse();
        assertThat(charged.charge().status()).isEqualTo(ChargeRecord.SUCCEEDED);
        assertThat(this.gateway.find("order-42")).contains(charged.charge());
    }

    @Test
    void aPendingChargeIsAnsweredPendingUntilItsSettleTimeThenSucceededUnderItsOneId() {
        SimulatedGateway.Charged first = this.gateway.charge("order-42", REQUEST, () -> Duration.ofSeconds(5))
            .orElseThrow();
        this.clock.advance(Duration.ofMillis(4999));
        SimulatedGateway.Charged beforeSettling = this.gateway.charge("order-42", REQUEST, () -> Duration.ofSeconds(5))
            .orElseThrow();
        String lookedUpBefore = this.gateway.find("order-42").orElseThrow().status();
        this.clock.advance(Duration.ofMillis(1));
        SimulatedGateway.Charged settled = this.gateway.charge("order-42", REQUEST, () -> null).orElseThrow();

        assertThat(first.replayed()).isFalse();
        assertThat(first.charge().status()).isEqualTo(ChargeRecord.PENDING);
        assertThat(beforeSettling.replayed()).isTrue();
        assertThat(beforeSettling.charge().status()).isEqualTo(ChargeRecord.PENDING);
        assertThat(lookedUpBefore).isEqualTo(ChargeRecord.PENDING);
        assertThat(settled.replayed()).isTrue();
        assertThat(settled.charge().status()).isEqualTo(ChargeRecord.SUCCEEDED);
        assertThat(settled.charge().chargeId()).isEqualTo(first.charge().chargeId());
        assertThat(this.gateway.charges()).singleElement()
            .extracting(ChargeRecord::status)
            .isEqualTo(ChargeRecord.SUCCEEDED);
    }

    @Test
    void aChargePendingForNoTimeIsAnsweredPendingAndFoundSucceededByTheNextRequest() {
        SimulatedGateway.Charged first = this.gateway.charge("order-42", REQUEST, () -> Duration.ZERO).orElseThrow();
        SimulatedGateway.Charged next = this.gateway.charge("order-42", REQUEST, () -> null).orElseThrow();

        assertThat(first.charge().status()).isEqualTo(ChargeRecord.PENDING);
        assertThat(next.charge().status()).isEqualTo(ChargeRecord.SUCCEEDED);
        assertThat(next.charge().chargeId()).isEqualTo(first.charge().chargeId());
    }

    @Test
    void aRequestWithAKeyStillBeingProcessedIsRefusedAndChargesNothing() {
        AtomicBoolean refused = new AtomicBoolean();
        SimulatedGateway.Charged first = this.gateway.charge("order-42", REQUEST, () -> {
            refused.set(this.gateway.charge("order-42", REQUEST, () -> null).isEmpty());
            return Duration.ofSeconds(1);
        }).orElseThrow();

        assertThat(refused).isTrue();
        assertThat(this.gateway.refusedInProgress()).isEqualTo(1);
        assertThat(first.charge().status()).isEqualTo(ChargeRecord.PENDING);
        assertThat(this.gateway.charges()).hasSize(1);
    }

    /** A clock that stands still until a test moves it. */
    private static final class MovingClock extends Clock {

        private Instant now = Instant.parse("2026-12-01T12:00:00Z");

        void advance(Duration duration) {
            this.now = this.now.plus(duration);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return this.now;
        }

    }

}
