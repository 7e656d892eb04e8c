package dev.resilience.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.Fallback;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.bulkhead.BulkheadFullException;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @Bulkhead} through the proxy: the limit holds under contention, refusals go to
 * the fallbacks, one name is one bulkhead, and an asynchronous call holds its permit
 * until its future completes. Waits are bounded by the virtual clock, which no test
 * advances, so a permit never times out by chance.
 */
class BulkheadAnnotationTests {

    private static final long AWAIT_SECONDS = 30;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withBean("callerRunsExecutor", java.util.concurrent.Executor.class, () -> Runnable::run)
        .withPropertyValues("resilience.async.executor=callerRunsExecutor");

    @Test
    void sixtyFourCallersNeverRunMoreThanEightAtOnceAndAllComplete() {
        Floor floor = new Floor();
        this.contextRunner.withBean(Warehouse.class, () -> new Warehouse(floor)).run((context) -> {
            Warehouse warehouse = context.getBean(Warehouse.class);
            dev.resilience.core.bulkhead.Bulkhead picking = context.getBean(ResilienceRegistry.class)
                .findBulkhead("picking")
                .orElseThrow();
            ExecutorService callers = Executors.newFixedThreadPool(64);
            try {
                List<Future<String>> picks = new ArrayList<>();
                for (int order = 0; order < 64; order++) {
                    int number = order;
                    picks.add(callers.submit(() -> warehouse.pick(number)));
                }
                assertThat(floor.pickingEntered.await(AWAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
                awaitTrue(() -> picking.waitingCalls() == 56);

                assertThat(floor.pickingInside.get()).isEqualTo(8);
                assertThat(picking.concurrentCalls()).isEqualTo(8);
                floor.pickingRelease.countDown();
                List<String> picked = new ArrayList<>();
                for (Future<String> pick : picks) {
                    picked.add(pick.get(AWAIT_SECONDS, TimeUnit.SECONDS));
                }

                assertThat(picked).hasSize(64).doesNotHaveDuplicates().allMatch((text) -> text.startsWith("picked "));
                assertThat(floor.pickingPeak.get()).isEqualTo(8);
                assertThat(picking.permittedCalls()).isEqualTo(64);
                assertThat(picking.rejectedCalls()).isZero();
                assertThat(picking.concurrentCalls()).isZero();
            }
            finally {
                floor.pickingRelease.countDown();
                callers.shutdownNow();
            }
        });
    }

    @Test
    void withoutAWaitTheRefusedCallsGetBulkheadFullExceptionInTheirFallback() {
        Floor floor = new Floor();
        this.contextRunner.withBean(Warehouse.class, () -> new Warehouse(floor)).run((context) -> {
            Warehouse warehouse = context.getBean(Warehouse.class);
            ExecutorService callers = Executors.newFixedThreadPool(2);
            try {
                Future<String> first = callers.submit(() -> warehouse.pack(1));
                Future<String> second = callers.submit(() -> warehouse.pack(2));
                assertThat(floor.packingEntered.await(AWAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

                assertThat(warehouse.pack(3)).isEqualTo("pack 3 later: bulkhead 'packing' is full (2)");
                assertThat(warehouse.pack(4)).isEqualTo("pack 4 later: bulkhead 'packing' is full (2)");
                floor.packingRelease.countDown();

                assertThat(first.get(AWAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("packed 1");
                assertThat(second.get(AWAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("packed 2");
                assertThat(floor.packingRuns.get()).isEqualTo(2);
                dev.resilience.core.bulkhead.Bulkhead packing = context.getBean(ResilienceRegistry.class)
                    .findBulkhead("packing")
                    .orElseThrow();
                assertThat(packing.rejectedCalls()).isEqualTo(2);
                assertThat(packing.permittedCalls()).isEqualTo(2);
            }
            finally {
                floor.packingRelease.countDown();
                callers.shutdownNow();
            }
        });
    }

    @Test
    void methodsThatNameOneBulkheadShareItsPermits() {
        Floor floor = new Floor();
        this.contextRunner.withBean(Warehouse.class, () -> new Warehouse(floor)).run((context) -> {
            Warehouse warehouse = context.getBean(Warehouse.class);
            ExecutorService callers = Executors.newFixedThreadPool(2);
            try {
                callers.submit(() -> warehouse.pack(1));
                callers.submit(() -> warehouse.pack(2));
                assertThat(floor.packingEntered.await(AWAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

                assertThatExceptionOfType(BulkheadFullException.class).isThrownBy(() -> warehouse.repack(5))
                    .satisfies((ex) -> assertThat(ex.bulkheadName()).isEqualTo("packing"));
                assertThat(context.getBean(ResilienceRegistry.class).bulkheads()).containsOnlyKeys("loading", "packing",
                        "picking", "shipping");
            }
            finally {
                floor.packingRelease.countDown();
                callers.shutdownNow();
            }
        });
    }

    @Test
    void asynchronousCallHoldsItsPermitUntilItsFutureCompletes() {
        Floor floor = new Floor();
        this.contextRunner.withBean(Warehouse.class, () -> new Warehouse(floor)).run((context) -> {
            Warehouse warehouse = context.getBean(Warehouse.class);
            dev.resilience.core.bulkhead.Bulkhead shipping = context.getBean(ResilienceRegistry.class)
                .findBulkhead("shipping")
                .orElseThrow();

            CompletableFuture<String> first = warehouse.ship("A");
            assertThat(first).isNotDone();
            assertThat(shipping.concurrentCalls()).isOne();
            CompletableFuture<String> refused = warehouse.ship("B");
            assertThat(refused.handle((value, failure) -> failure).join()).isInstanceOf(BulkheadFullException.class);
            assertThat(shipping.concurrentCalls()).isOne();

            floor.shipments.get(0).complete("shipped A");

            assertThat(first.join()).isEqualTo("shipped A");
            assertThat(shipping.concurrentCalls()).isZero();
            CompletableFuture<String> next = warehouse.ship("C");
            assertThat(shipping.concurrentCalls()).isOne();
            floor.shipments.get(1).complete("shipped C");
            assertThat(next.join()).isEqualTo("shipped C");
            assertThat(shipping.concurrentCalls()).isZero();
            assertThat(shipping.permittedCalls()).isEqualTo(2);
            assertThat(shipping.rejectedCalls()).isOne();
        });
    }

    @Test
    void interruptWhileWaitingForAPermitEndsTheCallAtOnceAndKeepsTheFlag() {
        Floor floor = new Floor();
        this.contextRunner.withBean(Warehouse.class, () -> new Warehouse(floor)).run((context) -> {
            Warehouse warehouse = context.getBean(Warehouse.class);
            dev.resilience.core.bulkhead.Bulkhead loading = context.getBean(ResilienceRegistry.class)
                .findBulkhead("loading")
                .orElseThrow();
            ExecutorService callers = Executors.newFixedThreadPool(1);
            try {
                callers.submit(() -> warehouse.load());
                assertThat(floor.loadingEntered.await(AWAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
                List<Throwable> failures = new CopyOnWriteArrayList<>();
                List<Boolean> interrupted = new CopyOnWriteArrayList<>();
                Thread waiter = new Thread(() -> {
                    try {
                        warehouse.load();
                    }
                    catch (Throwable ex) {
                        failures.add(ex);
                    }
                    interrupted.add(Thread.currentThread().isInterrupted());
                });
                waiter.start();
                awaitTrue(() -> loading.waitingCalls() == 1);

                waiter.interrupt();
                waiter.join(TimeUnit.SECONDS.toMillis(AWAIT_SECONDS));

                assertThat(waiter.isAlive()).isFalse();
                assertThat(failures).hasSize(1);
                assertThat(interrupted).containsExactly(true);
                assertThat(loading.waitingCalls()).isZero();
                assertThat(loading.concurrentCalls()).isOne();
                assertThat(floor.loadingRuns.get()).isOne();
            }
            finally {
                floor.loadingRelease.countDown();
                callers.shutdownNow();
            }
        });
    }

    @Test
    void twoAnnotationsThatConfigureOneBulkheadOtherwiseFailTheStart() {
        this.contextRunner.withBean("leftDock", LeftDock.class)
            .withBean("rightDock", RightDock.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("Setting: @Bulkhead(maxConcurrentCalls)")
                .contains("bulkhead 'dock' is also configured by bean '")
                .contains("LeftDock#load", "RightDock#load")
                .contains("resilience.bulkhead.instances.dock.max-concurrent-calls"));
    }

    @Test
    void twoAnnotationsThatWriteOneWaitDifferentlyAgree() {
        this.contextRunner.withBean("leftDock", LeftDock.class)
            .withBean("sameDock", SameDock.class)
            .run((context) -> assertThat(context).hasNotFailed());
    }

    @Test
    void badAnnotationValueFailsTheStartNamingTheAttributeAndTheBulkhead() {
        this.contextRunner.withBean("badDock", BadDock.class)
            .run((context) -> assertThat(FailureAnalyses.describe(context.getStartupFailure()))
                .contains("bean 'badDock', method BadDock#load")
                .contains("@Bulkhead(maxConcurrentCalls)")
                .contains("maxConcurrentCalls must be between 1 and 100000, was -2")
                .contains("Use from 1 to 100000 calls."));
    }

    @Test
    void yamlInstanceOverridesTheAnnotatedLimit() {
        this.contextRunner.withBean(Warehouse.class, () -> new Warehouse(new Floor()))
            .withPropertyValues("resilience.bulkhead.instances.picking.max-concurrent-calls=3",
                    "resilience.bulkhead.defaults.max-wait=1s")
            .run((context) -> {
                ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
                assertThat(registry.findBulkhead("picking").orElseThrow().config().maxConcurrentCalls()).isEqualTo(3);
                assertThat(registry.findBulkhead("picking").orElseThrow().config().maxWait()).hasSeconds(10);
                assertThat(registry.findBulkhead("shipping").orElseThrow().config().maxWait()).hasSeconds(1);
            });
    }

    @Test
    void yamlLatencyThresholdOfAnInstanceWinsOverTheDefaultsAndDecidesWhenAimdBacksOff() {
        this.contextRunner.withBean(Warehouse.class, () -> new Warehouse(new Floor()))
            .withPropertyValues("resilience.bulkhead.defaults.type=adaptive",
                    "resilience.bulkhead.defaults.algorithm=aimd",
                    "resilience.bulkhead.defaults.latency-threshold=300ms",
                    "resilience.bulkhead.instances.picking.latency-threshold=200ms")
            .run((context) -> {
                ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
                dev.resilience.core.bulkhead.Bulkhead picking = registry.findBulkhead("picking").orElseThrow();
                dev.resilience.core.bulkhead.Bulkhead shipping = registry.findBulkhead("shipping").orElseThrow();
                assertThat(picking.config().latencyThreshold()).isEqualTo(Duration.ofMillis(200));
                assertThat(shipping.config().latencyThreshold()).isEqualTo(Duration.ofMillis(300));

                windowOfCallsTaking(picking, Duration.ofMillis(250));
                windowOfCallsTaking(shipping, Duration.ofMillis(250));

                assertThat(picking.limit()).as("8 cut by a tenth").isEqualTo(7);
                assertThat(shipping.limit()).as("1 grown by one").isEqualTo(2);
            });
    }

    private static void windowOfCallsTaking(dev.resilience.core.bulkhead.Bulkhead bulkhead, Duration latency)
            throws InterruptedException {
        for (int i = 0; i < 10; i++) {
            bulkhead.onSuccess(bulkhead.acquire(), latency.toNanos());
        }
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition met in time").isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    static class Warehouse {

        private final Floor floor;

        Warehouse(Floor floor) {
            this.floor = floor;
        }

        @Bulkhead(name = "picking", maxConcurrentCalls = 8, maxWait = "10s")
        public String pick(int order) throws InterruptedException {
            int inside = this.floor.pickingInside.incrementAndGet();
            this.floor.pickingPeak.accumulateAndGet(inside, Math::max);
            this.floor.pickingEntered.countDown();
            try {
                this.floor.pickingRelease.await(AWAIT_SECONDS, TimeUnit.SECONDS);
                return "picked " + order;
            }
            finally {
                this.floor.pickingInside.decrementAndGet();
            }
        }

        @Bulkhead(name = "packing", maxConcurrentCalls = 2, maxWait = "0")
        @Fallback("packLater")
        public String pack(int order) throws InterruptedException {
            this.floor.packingRuns.incrementAndGet();
            this.floor.packingEntered.countDown();
            this.floor.packingRelease.await(AWAIT_SECONDS, TimeUnit.SECONDS);
            return "packed " + order;
        }

        @Bulkhead(name = "packing", maxConcurrentCalls = 2, maxWait = "0ms")
        public String repack(int order) {
            return "repacked " + order;
        }

        String packLater(int order, BulkheadFullException ex) {
            return "pack " + order + " later: bulkhead '" + ex.bulkheadName() + "' is full (" + ex.limit() + ")";
        }

        @Bulkhead(name = "loading", maxConcurrentCalls = 1, maxWait = "10s")
        public String load() throws InterruptedException {
            this.floor.loadingRuns.incrementAndGet();
            this.floor.loadingEntered.countDown();
            this.floor.loadingRelease.await(AWAIT_SECONDS, TimeUnit.SECONDS);
            return "loaded";
        }

        @Bulkhead(name = "shipping", maxConcurrentCalls = 1)
        public CompletableFuture<String> ship(String order) {
            CompletableFuture<String> shipment = new CompletableFuture<>();
            this.floor.shipments.add(shipment);
            return shipment;
        }

    }

    static class Floor {

        final CountDownLatch loadingEntered = new CountDownLatch(1);

        final CountDownLatch loadingRelease = new CountDownLatch(1);

        final AtomicInteger loadingRuns = new AtomicInteger();

        final AtomicInteger pickingInside = new AtomicInteger();

        final AtomicInteger pickingPeak = new AtomicInteger();

        final CountDownLatch pickingEntered = new CountDownLatch(8);

        final CountDownLatch pickingRelease = new CountDownLatch(1);

        final CountDownLatch packingEntered = new CountDownLatch(2);

        final CountDownLatch packingRelease = new CountDownLatch(1);

        final AtomicInteger packingRuns = new AtomicInteger();

        final List<CompletableFuture<String>> shipments = new CopyOnWriteArrayList<>();

    }

    static class LeftDock {

        @Bulkhead(name = "dock", maxConcurrentCalls = 4, maxWait = "1s")
        public String load() {
            return "loaded";
        }

    }

    static class RightDock {

        @Bulkhead(name = "dock", maxConcurrentCalls = 5, maxWait = "1s")
        public String load() {
            return "loaded";
        }

    }

    static class SameDock {

        @Bulkhead(name = "dock", maxConcurrentCalls = 4, maxWait = "1000ms")
        public String load() {
            return "loaded";
        }

    }

    static class BadDock {

        @Bulkhead(maxConcurrentCalls = -2)
        public String load() {
            return "loaded";
        }

    }

}
