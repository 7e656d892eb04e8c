package dev.resilience.registry;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Retryable;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.circuitbreaker.CircuitBreakerConfig;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The one registry of named instances: each name resolved once, under concurrent first
 * requests too, and each listener told once of each instance.
 */
@ExtendWith(OutputCaptureExtension.class)
class ResilienceRegistryTests {

    private static final int THREADS = 16;

    private final VirtualTimeSource time = new VirtualTimeSource();

    private final CountingPolicyResolver resolver = new CountingPolicyResolver(Set.of("configured-retry"),
            Set.of("configured-breaker"));

    private final ResilienceRegistry registry = new ResilienceRegistry(this.resolver, this.time);

    private final ExecutorService threads = Executors.newFixedThreadPool(THREADS + 1);

    @AfterEach
    void stopThreads() {
        this.threads.shutdownNow();
    }

    @Test
    void breakerIsResolvedOnceWithTheAnnotationOfItsFirstRequestAndSharedByEveryLaterOne() {
        CircuitGuarded annotation = annotation("guarded", CircuitGuarded.class);

        CircuitBreaker first = this.registry.circuitBreaker("gateway", annotation);
        CircuitBreaker unannotated = this.registry.circuitBreaker("gateway");
        CircuitBreaker again = this.registry.circuitBreaker("gateway", annotation);

        assertThat(unannotated).isSameAs(first);
        assertThat(again).isSameAs(first);
        assertThat(this.resolver.circuitBreakerCalls("gateway")).containsExactly(annotation);
        assertThat(this.registry.findCircuitBreaker("gateway")).containsSame(first);
        assertThat(this.registry.circuitBreakers()).containsOnlyKeys("gateway");
    }

    @Test
    void annotationThatWouldConfigureAnInstanceResolvedWithoutOneGetsItAndAWarningOncePerName(CapturedOutput output) {
        RetryPolicy first = this.registry.retry("http-client");
        CircuitBreaker breaker = this.registry.circuitBreaker("http-client");

        assertThat(this.registry.retry("http-client", annotation("retriedFiveTimes", Retryable.class))).isSameAs(first);
        assertThat(this.registry.retry("http-client", annotation("retriedFiveTimes", Retryable.class))).isSameAs(first);
        assertThat(this.registry.circuitBreaker("http-client", annotation("guardedOnIo", CircuitGuarded.class)))
            .isSameAs(breaker);
        assertThat(this.registry.retry("http-client", annotation("named", Retryable.class))).isSameAs(first);

        assertThat(output).containsOnlyOnce("@Retryable(maxAttempts = 5) does not apply")
            .contains("resilience.retry.instances.http-client.max-attempts")
            .containsOnlyOnce("@CircuitGuarded(recordOn = ")
            .doesNotContain("@Retryable(value");
        assertThat(this.resolver.retryCalls("http-client")).hasSize(1);
    }

    @Test
    void resultPredicateOfAnAnnotationIsWarnedOfOnlyWhereItDoesNotApplyAndNeverWithAProperty(CapturedOutput output) {
        this.registry.retry("statuses");
        this.registry.circuitBreaker("settlement");

        this.registry.retry("statuses", annotation("retriedOnPending", Retryable.class));
        this.registry.circuitBreaker("settlement", annotation("failedOnPending", CircuitGuarded.class));

        assertThat(output).doesNotContain("@Retryable(retryOnResult")
            .containsOnlyOnce("@CircuitGuarded(failOnResult = #result == 'PENDING') does not apply")
            .contains("resolved once. Give the method's circuit breaker a name of its own.")
            .doesNotContain("fail-on-result");
    }

    @Test
    void instanceWhoseFirstResolutionFailedIsResolvedWithTheNextRequestsAnnotation() {
        AtomicInteger resolutions = new AtomicInteger();
        this.resolver.whileResolving((name) -> {
            if (resolutions.incrementAndGet() == 1) {
                throw new InvalidResiliencePolicyException(name, "max-attempts", "0", "too few", "Raise it.");
            }
        });
        assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> this.registry.retry("payment"));

        Retryable annotation = annotation("retriedFiveTimes", Retryable.class);

        assertThat(this.registry.retry("payment", annotation)).isNotNull();
        assertThat(this.resolver.retryCalls("payment")).last().isSameAs(annotation);
    }

    @Test
    void retryInstanceIsResolvedOnceWithTheAnnotationOfItsFirstRequestAndSharedByEveryLaterOne() {
        Retryable annotation = annotation("retried", Retryable.class);

        RetryPolicy first = this.registry.retry("payment", annotation);
        RetryPolicy again = this.registry.retry("payment", annotation);
        RetryPolicy unannotated = this.registry.retry("payment");

        assertThat(again).isSameAs(first);
        assertThat(unannotated).isSameAs(first);
        assertThat(this.resolver.retryCalls("payment")).containsExactly(annotation);
        assertThat(this.registry.findRetryPolicy("payment")).containsSame(first);
        assertThat(this.registry.statistics()).containsOnlyKeys("payment");
    }

    @Test
    void sixteenThreadsAskingForANewBreakerAtOnceResolveItOnceAndGetTheSameBreaker() throws Exception {
        List<CircuitBreaker> breakers = atOnce((thread) -> this.registry.circuitBreaker("gateway"));

        assertThat(this.resolver.circuitBreakerCalls("gateway")).hasSize(1);
        assertThat(breakers).hasSize(THREADS).allSatisfy((breaker) -> assertThat(breaker).isSameAs(breakers.get(0)));
    }

    @Test
    void sixteenThreadsAskingForANewRetryInstanceAtOnceResolveItOnceAndGetTheSamePolicy() throws Exception {
        Retryable annotation = annotation("named", Retryable.class);

        List<RetryPolicy> policies = atOnce((thread) -> (thread % 2 == 0)
                ? this.registry.retry("http-client", annotation) : this.registry.retry("http-client"));

        assertThat(this.resolver.retryCalls("http-client")).hasSize(1);
        assertThat(policies).hasSize(THREADS).allSatisfy((policy) -> assertThat(policy).isSameAs(policies.get(0)));
        assertThat(this.registry.retryPolicies()).containsOnlyKeys("http-client");
    }

    @Test
    void listenerAddedBeforeHearsOnceOfEachInstanceCreatedByConcurrentRequests() throws Exception {
        CountingListener listener = new CountingListener();
        this.registry.addListener(listener);

        atOnce((thread) -> {
            this.registry.circuitBreaker("gateway");
            return this.registry.retry("payment");
        });

        assertThat(listener.breakers).containsExactly(Map.entry("gateway", 1));
        assertThat(listener.statistics).containsExactly(Map.entry("payment", 1));
    }

    @Test
    void listenerAddedAfterHearsOnceOfEachInstanceThatExists() {
        this.registry.circuitBreaker("gateway");
        this.registry.retry("payment");
        this.registry.statistics("payment");
        CountingListener listener = new CountingListener();

        this.registry.addListener(listener);
        this.registry.circuitBreaker("gateway");
        this.registry.retry("payment");

        assertThat(listener.breakers).containsExactly(Map.entry("gateway", 1));
        assertThat(listener.statistics).containsExactly(Map.entry("payment", 1));
    }

    /**
     * A listener added while an instance is put in the registry finds it there and is
     * told of it by its creator too; it must hear of it once. The moment is a race, so
     * listeners are added one after every few instances created, all along.
     */
    @Test
    void listenersAddedWhileInstancesAreCreatedHearOnceOfEachOfThem() throws Exception {
        int creators = 2;
        int namesEach = 500;
        AtomicInteger progress = new AtomicInteger();
        List<CountingListener> listeners = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch created = new CountDownLatch(creators);
        Future<?> adding = this.threads.submit(() -> {
            start.await();
            while (created.getCount() > 0) {
                CountingListener listener = new CountingListener();
                listeners.add(listener);
                this.registry.addListener(listener);
                int seen = progress.get();
                while (progress.get() < seen + 10 && created.getCount() > 0) {
                    Thread.onSpinWait();
                }
            }
            return null;
        });
        for (int creator = 0; creator < creators; creator++) {
            String prefix = "creator-" + creator + "-";
            this.threads.submit(() -> {
                start.await();
                for (int i = 0; i < namesEach; i++) {
                    this.registry.circuitBreaker(prefix + i);
                    this.registry.statistics(prefix + i);
                    progress.incrementAndGet();
                }
                created.countDown();
                return null;
            });
        }

        start.countDown();
        assertThat(created.await(10, TimeUnit.SECONDS)).isTrue();
        adding.get(10, TimeUnit.SECONDS);

        assertThat(listeners).isNotEmpty().allSatisfy((listener) -> {
            assertThat(listener.breakers).hasSize(creators * namesEach).containsOnlyKeys(listener.statistics.keySet());
            assertThat(listener.breakers.values()).containsOnly(1);
            assertThat(listener.statistics.values()).containsOnly(1);
        });
    }

    @Test
    void configuredInstancesAreCreatedOnceAndInstancesAskedForFirstAreNotResolvedAgain() {
        this.registry.circuitBreaker("configured-breaker", annotation("guarded", CircuitGuarded.class));

        this.registry.createConfiguredInstances();
        this.registry.createConfiguredInstances();

        assertThat(this.registry.retryPolicies()).containsOnlyKeys("configured-retry");
        assertThat(this.registry.circuitBreakers()).containsOnlyKeys("configured-breaker");
        assertThat(this.resolver.retryCalls("configured-retry")).hasSize(1);
        assertThat(this.resolver.circuitBreakerCalls("configured-breaker")).hasSize(1);
    }

    @Test
    void resolutionErrorNamesTheInstanceAndRegistersNothing() {
        this.resolver.whileResolving((name) -> {
            throw new InvalidResiliencePolicyException("annotation", "maxAttempts", "0", "must be >= 1",
                    "Set maxAttempts to 1 or more.");
        });

        assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> this.registry.circuitBreaker("gateway"))
            .satisfies((ex) -> assertThat(ex.getSubject()).isEqualTo("circuit breaker 'gateway'"))
            .satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("maxAttempts"));
        assertThatExceptionOfType(InvalidResiliencePolicyException.class)
            .isThrownBy(() -> this.registry.retry("payment"))
            .satisfies((ex) -> assertThat(ex.getSubject()).isEqualTo("retry instance 'payment'"));
        assertThat(this.registry.circuitBreakers()).isEmpty();
        assertThat(this.registry.retryPolicies()).isEmpty();
        assertThat(this.registry.statistics()).isEmpty();
    }

    @Test
    void breakersRunTheirTimedTransitionsOnTheRegistrysExecutor() {
        List<Runnable> handedOver = new ArrayList<>();
        ResilienceRegistry registry = new ResilienceRegistry(this.resolver, this.time, handedOver::add);
        this.resolver.circuitBreakerConfig(CircuitBreakerConfig.builder()
            .slidingWindowSize(2)
            .minimumCalls(2)
            .waitInOpen(Duration.ofSeconds(30))
            .automaticTransitionToHalfOpen(true)
            .build());
        CircuitBreaker breaker = registry.circuitBreaker("gateway");
        for (int i = 0; i < 2; i++) {
            breaker.onError(breaker.acquirePermit(), 0, new IOException("down"));
        }

        this.time.advance(Duration.ofSeconds(30));

        assertThat(handedOver).hasSize(1);
        handedOver.get(0).run();
        assertThat(breaker.state()).isEqualTo(CircuitBreakerState.HALF_OPEN);
    }

    /**
     * Runs a request on {@link #THREADS} threads released at once by a start gate. The
     * first resolution waits, up to half a second, for a second one, so that a registry
     * that resolves a name more than once fails every time rather than by chance; the
     * registry under test makes it wait the whole half second, once.
     */
    private <T> List<T> atOnce(IntFunction<T> request) throws Exception {
        CountDownLatch secondResolution = new CountDownLatch(2);
        this.resolver.whileResolving((name) -> {
            secondResolution.countDown();
            awaitQuietly(secondResolution);
        });
        CountDownLatch ready = new CountDownLatch(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            int thread = i;
            futures.add(this.threads.submit(() -> {
                ready.countDown();
                start.await();
                return request.apply(thread);
            }));
        }
        assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
        start.countDown();
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get(10, TimeUnit.SECONDS));
        }
        return results;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(500, TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private static <A extends Annotation> A annotation(String method, Class<A> type) {
        try {
            return Annotated.class.getDeclaredMethod(method).getAnnotation(type);
        }
        catch (NoSuchMethodException ex) {
            throw new IllegalStateException(ex);
        }
    }

    static class Annotated {

        @CircuitGuarded("gateway")
        void guarded() {
        }

        @Retryable(value = "payment", maxAttempts = 4)
        void retried() {
        }

        @Retryable("http-client")
        void named() {
        }

        @Retryable(value = "http-client", maxAttempts = 5)
        void retriedFiveTimes() {
        }

        @CircuitGuarded(value = "http-client", recordOn = IOException.class)
        void guardedOnIo() {
        }

        @Retryable(value = "statuses", retryOnResult = "#result == 'PENDING'")
        String retriedOnPending() {
            return "DONE";
        }

        @CircuitGuarded(value = "settlement", failOnResult = "#result == 'PENDING'")
        String failedOnPending() {
            return "DONE";
        }

    }

    static class CountingListener implements RegistryListener {

        final Map<String, Integer> breakers = new ConcurrentHashMap<>();

        final Map<String, Integer> statistics = new ConcurrentHashMap<>();

        @Override
        public void onCircuitBreaker(CircuitBreaker circuitBreaker) {
            this.breakers.merge(circuitBreaker.name(), 1, Integer::sum);
        }

        @Override
        public void onStatistics(CallStatistics statistics) {
            this.statistics.merge(statistics.name(), 1, Integer::sum);
        }

    }

}
