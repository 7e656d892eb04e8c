package dev.resilience.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

import dev.resilience.sample.order.OrderState;
import dev.resilience.sample.order.OrderView;
import dev.resilience.sample.payment.PaymentResponse;
import dev.resilience.sample.simulator.ChargeRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Payments while the primary gateway fails half of its calls and the backup a fifth:
 * every payment ends paid or deferred, and no order is charged twice, even when each
 * payment is sent twice at once with the same key.
 */
@SampleApplicationTests
class PaymentsUnderFailuresTests {

    private static final int ORDERS = 40;

    @LocalServerPort
    private int port;

    private SampleClient client;

    private ExecutorService executor;

    private Map<String, Long> requestsBefore;

    @BeforeEach
    void failHalfOfThePrimaryCalls() {
        this.client = new SampleClient(this.port);
        this.client.reset();
        this.client.faults("primary", 0.5, 0, false);
        this.client.faults("backup", 0.2, 0, false);
        this.executor = Executors.newFixedThreadPool(8);
        this.requestsBefore = this.client.report().requests();
    }

    @AfterEach
    void stopExecutor() {
        this.executor.shutdownNow();
        this.client.reset();
    }

    @Test
    void everyPaymentEndsPaidOrDeferredAndNoOrderIsChargedTwice() {
        List<PaymentResponse> payments = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            OrderView order = this.client.createOrder("tok_visa");
            ResponseEntity<PaymentResponse> response = this.client.pay(order.id(), "seq-" + order.id());
            assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
            payments.add(response.getBody());
        }
        assertSettledOnceEach(payments, "sequential");
    }

    @Test
    void aPaymentSentTwiceAtOnceWithOneKeyGetsOneAnswerAndOneChargeAtMost() throws Exception {
        List<CompletableFuture<PaymentResponse[]>> pairs = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            OrderView order = this.client.createOrder("tok_visa");
            pairs.add(CompletableFuture.supplyAsync(() -> payTwiceAtOnce(order.id()), this.executor));
        }
        List<PaymentResponse> payments = new ArrayList<>();
        int replayed = 0;
        for (CompletableFuture<PaymentResponse[]> pair : pairs) {
            PaymentResponse[] both = pair.get();
            assertThat(both[1]).usingRecursiveComparison()
                .comparingOnlyFields("orderId", "state", "gateway", "chargeId", "amountCents")
                .isEqualTo(both[0]);
            replayed += (both[0].replayed() ? 1 : 0) + (both[1].replayed() ? 1 : 0);
            payments.add(both[0]);
        }
        assertThat(replayed).isEqualTo(ORDERS);
        assertSettledOnceEach(payments, "twice-concurrent");
    }

    private PaymentResponse[] payTwiceAtOnce(long orderId) {
        CountDownLatch start = new CountDownLatch(1);
        String key = "dup-" + orderId;
        CompletableFuture<ResponseEntity<PaymentResponse>> first = CompletableFuture
            .supplyAsync(() -> awaitThenPay(start, orderId, key));
        CompletableFuture<ResponseEntity<PaymentResponse>> second = CompletableFuture
            .supplyAsync(() -> awaitThenPay(start, orderId, key));
        start.countDown();
        ResponseEntity<PaymentResponse> a = first.join();
        ResponseEntity<PaymentResponse> b = second.join();
        assertThat(a.getStatusCode()).as("%s", a.getBody()).isEqualTo(HttpStatus.OK);
        assertThat(b.getStatusCode()).as("%s", b.getBody()).isEqualTo(HttpStatus.OK);
        return new PaymentResponse[] { a.getBody(), b.getBody() };
    }

    private ResponseEntity<PaymentResponse> awaitThenPay(CountDownLatch start, long orderId, String key) {
        try {
            start.await();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        return this.client.pay(orderId, key);
    }

    private void assertSettledOnceEach(List<PaymentResponse> payments, String run) {
        Map<Long, List<ChargeRecord>> charges = new TreeMap<>();
        for (String gateway : List.of("primary", "backup")) {
            for (ChargeRecord charge : this.client.charges(gateway)) {
                charges.computeIfAbsent(charge.orderId(), (id) -> new ArrayList<>()).add(charge);
            }
        }
        for (PaymentResponse payment : payments) {
            assertThat(payment.state()).isIn(OrderState.PAID, OrderState.PAYMENT_DEFERRED);
            assertThat(this.client.order(payment.orderId()).state()).isEqualTo(payment.state());
            List<ChargeRecord> ofOrder = charges.getOrDefault(payment.orderId(), List.of());
            if (payment.state() == OrderState.PAID) {
                assertThat(ofOrder).singleElement().satisfies((charge) -> {
                    assertThat(charge.chargeId()).isEqualTo(payment.chargeId());
                    assertThat(charge.gateway()).isEqualTo(payment.gateway());
                });
            }
            else {
                assertThat(ofOrder).isEmpty();
            }
        }
        assertThat(this.client.report().ordersChargedMoreThanOnce()).isEmpty();
        Map<String, Long> byState = payments.stream()
            .collect(Collectors.groupingBy((p) -> p.state().name(), TreeMap::new, Collectors.counting()));
        Map<String, Long> byGateway = payments.stream()
            .filter((p) -> p.gateway() != null)
            .collect(Collectors.groupingBy(PaymentResponse::gateway, TreeMap::new, Collectors.counting()));
        Map<String, Long> requests = new TreeMap<>();
        this.client.report()
            .requests()
            .forEach((target, count) -> requests.put(target, count - this.requestsBefore.get(target)));
        System.out.printf(
                "FIGURES %s: %d orders, by state %s, charges by gateway %s, gateway requests %s, "
                        + "orders charged more than once %s%n",
                run, payments.size(), byState, byGateway, requests, this.client.report().ordersChargedMoreThanOnce());
    }

}
