package dev.resilience.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.Stream;

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
import static org.awaitility.Awaitility.await;

/**
 * Payments while the primary gateway fails half of its calls and the backup a fifth:
 * every payment ends paid or deferred, and no order is charged twice, even when each
 * payment is sent twice at once with the same key, or when the gateways also answer some
 * charges pending: then a payment may end in doubt, and paying it again once the charges
 * have settled pays it with its one charge.
 */
@SampleApplicationTests
class PaymentsUnderFailuresTests {

    private static final int ORDERS = 40;

    /**
     * How long a pending charge stays pending: a retry or a lookup may find it settled.
     */
    private static final long PENDING_MS = 40;

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
    void withPendingChargesEveryPaymentEndsPaidDeferredOrInDoubtAndNoOrderIsChargedTwice() {
        this.client.pendingCharges("primary", 0.5, 0.3, PENDING_MS);
        this.client.pendingCharges("backup", 0.2, 0.3, PENDING_MS);
        List<PaymentResponse> payments = new ArrayList<>();
        Map<Long, String> inDoubt = new TreeMap<>();
        for (int i = 0; i < ORDERS; i++) {
            OrderView order = this.client.createOrder("tok_visa");
            String key = "pending-seq-" + order.id();
            ResponseEntity<PaymentResponse> response = this.client.pay(order.id(), key);
            PaymentResponse payment = response.getBody();
            if (payment.state() == OrderState.PAYMENT_IN_DOUBT) {
                assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_GATEWAY);
                assertThat(payment.deadLetterId()).isNotNull();
                assertThat(this.client.order(order.id()).state()).isEqualTo(OrderState.PAYMENT_IN_DOUBT);
                assertThat(this.client.charges(order.id())).hasSizeLessThanOrEqualTo(1);
                inDoubt.put(order.id(), key);
            }
            else {
                assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
                payments.add(payment);
            }
        }
        assertThat(this.client.report().ordersChargedMoreThanOnce()).isEmpty();
        this.client.reset();
        await().atMost(Duration.ofSeconds(20))
            .until(() -> Stream.of("primary", "backup")
                .flatMap((gateway) -> this.client.charges(gateway).stream())
                .noneMatch((charge) -> charge.status().equals(ChargeRecord.PENDING)));
        inDoubt.forEach((orderId, key) -> {
            ResponseEntity<PaymentResponse> settled = this.client.pay(orderId, key);
            assertThat(settled.getStatusCode()).isEqualTo(HttpStatus.OK);
            assertThat(settled.getBody().state()).as("order %d paid again", orderId).isEqualTo(OrderState.PAID);
            payments.add(settled.getBody());
        });
        System.out.printf("FIGURES pending: %d orders in doubt, paid again: %s%n", inDoubt.size(), inDoubt.keySet());
        assertSettledOnceEach(payments, "sequential-pending");
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
