package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.hedging.HedgingPolicy;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.Jitter;
import dev.resilience.core.retry.RetryEvent;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a call carries from its caller's thread ({@link CallContext#carried()}) is in
 * place in every step the engine runs on another thread, and only there: the attempts
 * after a backoff, the fallbacks, the listeners and the hedges see the caller's value,
 * the executor's thread is clean again after each step, and a carried context that fails
 * cannot leave a call unended. On the virtual clock, whose timers fire on the thread that
 * moves it, so every later step is handed to a single-thread executor.
 */
class CarriedContextTests {

    private static final ThreadLocal<String> REQUEST = new ThreadLocal<>();

    private final VirtualTimeSource clock = new VirtualTimeSource();

    private final ExecutorService executor = Executors
        .newSingleThreadExecutor((task) -> new Thread(task, "carried-step"));

    private final ExecutorService callers = Executors.newSingleThreadExecutor((task) -> new Thread(task, "caller"));

    private final Map<String, String> seen = new ConcurrentHashMap<>();

    @AfterEach
    void stopThreads() {
        this.executor.shutdownNow();
        this.callers.shutdownNow();
        REQUEST.remove();
    }

    @Test
    void attemptAfterABackoffTheFallbackAndTheListenersRunWithTheCallersValueOnTheExecutor() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        ResiliencePipeline pipeline = pipeline(2)
            .fallbacks(FallbackChain.of(FallbackHandler.of("cached",
                    (error, call) -> CompletableFuture.completedFuture(record("fallback", "cached")))))
            .listener(recording())
            .build();

        REQUEST.set("r-1");
        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(context(), () -> {
            record("attempt-" + attempts.incrementAndGet(), "");
            return CompletableFuture.failedFuture(new IOException("down"));
        });
        REQUEST.remove();
        this.clock.advance(Duration.ofMillis(100));

        assertThat(call.get(10, TimeUnit.SECONDS).value()).isEqualTo("cached");
        assertThat(this.seen).containsOnly(Map.entry("attempt-1", "r-1 on " + Thread.currentThread().getName()),
                Map.entry("retry", "r-1 on " + Thread.currentThread().getName()),
                Map.entry("attempt-2", "r-1 on carried-step"), Map.entry("fallback", "r-1 on carried-step"),
                Map.entry("complete", "r-1 on carried-step"));
        assertThat(onTheExecutor()).isNull();
    }

    @Test
    void callersOwnContinuationOfTheReturnedFutureRunsWithTheThreadsOwnValueNotTheCarriedOne() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        ResiliencePipeline pipeline = pipeline(2).listener(recording()).build();

        REQUEST.set("r-5");
        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(context(),
                () -> (attempts.incrementAndGet() == 1) ? CompletableFuture.failedFuture(new IOException("down"))
                        : CompletableFuture.completedFuture("quote"));
        REQUEST.remove();
        CompletableFuture<String> continued = call
            .thenApply((result) -> REQUEST.get() + " on " + Thread.currentThread().getName());
        this.clock.advance(Duration.ofMillis(100));

        assertThat(continued.get(10, TimeUnit.SECONDS)).isEqualTo("null on carried-step");
        assertThat(this.seen).containsEntry("complete", "r-5 on carried-step");
        assertThat(onTheExecutor()).isNull();
    }

    @Test
    void stageCompletedOnAnotherThreadIsJudgedAndRetriedWithTheCallersValue() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<String> first = new CompletableFuture<>();
        ResiliencePipeline pipeline = pipeline(2).build();

        REQUEST.set("r-2");
        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(context(), () -> {
            if (attempts.incrementAndGet() == 1) {
                return first;
            }
            return CompletableFuture.completedFuture(record("attempt-2", "quote"));
        });
        REQUEST.remove();
        this.callers.submit(() -> first.completeExceptionally(new IOException("down"))).get();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.clock.pendingTasks() == 1);
        this.clock.advance(Duration.ofMillis(100));

        assertThat(call.get(10, TimeUnit.SECONDS).value()).isEqualTo("quote");
        assertThat(this.seen).containsOnly(Map.entry("attempt-2", "r-2 on carried-step"));
        assertThat(onTheExecutor()).isNull();
    }

    @Test
    void hedgeOfASynchronousCallRunsWithTheCallersValue() throws Exception {
        CountDownLatch firstEntered = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger tries = new AtomicInteger();
        ResiliencePipeline pipeline = ResiliencePipeline.builder("quote")
            .timeSource(this.clock)
            .executor(this.executor)
            .hedging(HedgingPolicy.of(Duration.ofMillis(50), 1))
            .build();

        Future<ExecutionResult<String>> call = this.callers.submit(() -> {
            REQUEST.set("r-3");
            try {
                return pipeline.execute(context(), () -> {
                    if (tries.incrementAndGet() > 1) {
                        return record("hedge", "hedged quote");
                    }
                    firstEntered.countDown();
                    never.await();
                    return "first";
                });
            }
            finally {
                REQUEST.remove();
            }
        });
        assertThat(firstEntered.await(10, TimeUnit.SECONDS)).isTrue();
        this.clock.advance(Duration.ofMillis(50));

        assertThat(call.get(10, TimeUnit.SECONDS).value()).isEqualTo("hedged quote");
        assertThat(this.seen).containsOnly(Map.entry("hedge", "r-3 on carried-step"));
        assertThat(onTheExecutor()).isNull();
    }

    @Test
    void carriedContextThatFailsBeforeTheStepStillLetsTheCallEnd() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        ResiliencePipeline pipeline = pipeline(2).build();
        CallContext failing = CallContext.empty().withCarried((step) -> () -> {
            throw new IllegalStateException("context lost");
        });

        CompletableFuture<ExecutionResult<String>> call = pipeline.executeAsync(failing,
                () -> (attempts.incrementAndGet() == 1) ? CompletableFuture.failedFuture(new IOException("down"))
                        : CompletableFuture.completedFuture("quote"));
        this.clock.advance(Duration.ofMillis(100));

        ExecutionResult<String> result = call.get(10, TimeUnit.SECONDS);
        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("quote");
        assertThat(attempts).hasValue(2);
    }

    @Test
    void contextsMadeWithTheShorterConstructorsCarryNothing() {
        assertThat(CallContext.empty().carried()).isSameAs(CarriedContext.NONE);
        assertThat(CallContext.of("Quotes#quote", List.of()).withListener(ExecutionListener.NONE).carried())
            .isSameAs(CarriedContext.NONE);
        CarriedContext carried = (step) -> step;
        assertThat(
                CallContext.empty().withCarried(carried).withIdempotencyScope("alice").withDeadLetters(null).carried())
            .isSameAs(carried);
    }

    @Test
    void aContextGivenWhatItCarriesAlreadyIsTheSameContext() {
        CallContext context = CallContext.idempotent("k-1", "fp");
        CarriedContext carried = (step) -> step;
        CallContext carrying = context.withCarried(carried);

        assertThat(context.withCarried(CarriedContext.NONE)).isSameAs(context);
        assertThat(carrying.withCarried(carried)).isSameAs(carrying);
        assertThat(carrying).isNotSameAs(context);
        assertThat(carrying.idempotencyKey()).isEqualTo("k-1");
    }

    private ResiliencePipeline.Builder pipeline(int maxAttempts) {
        return ResiliencePipeline.builder("quote")
            .timeSource(this.clock)
            .executor(this.executor)
            .retry(RetryPolicy.builder()
                .maxAttempts(maxAttempts)
                .backoff(Backoff.of(Duration.ofMillis(100), 1.0, Duration.ofSeconds(1), Jitter.NONE))
                .build());
    }

    /**
     * Returns a context that carries the caller's value of {@link #REQUEST}, read now on
     * the caller's thread, and puts back the thread's own value after each step.
     */
    private static CallContext context() {
        String captured = REQUEST.get();
        return CallContext.empty().withCarried((step) -> () -> {
            String previous = REQUEST.get();
            REQUEST.set(captured);
            try {
                step.run();
            }
            finally {
                REQUEST.set(previous);
            }
        });
    }

    private ExecutionListener recording() {
        return new ExecutionListener() {
            @Override
            public void onRetry(String name, RetryEvent event) {
                record("retry", "");
            }

            @Override
            public void onComplete(String name, ExecutionResult<?> result) {
                record("complete", "");
            }
        };
    }

    private <T> T record(String what, T value) {
        this.seen.put(what, REQUEST.get() + " on " + Thread.currentThread().getName());
        return value;
    }

    private String onTheExecutor() throws Exception {
        return this.executor.submit(REQUEST::get).get(10, TimeUnit.SECONDS);
    }

}
