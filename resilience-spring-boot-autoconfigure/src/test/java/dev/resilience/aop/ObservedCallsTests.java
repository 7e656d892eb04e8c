package dev.resilience.aop;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;

import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.junit.jupiter.api.Test;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The calls of a pipeline that are not an annotated method's, observed as one: one
 * observation per call, stopped exactly once however the call ends.
 */
class ObservedCallsTests {

    private final RecordingObservationHandler recorded = new RecordingObservationHandler();

    private final ObservationRegistry registry = ObservationRegistry.create();

    private final ObservedCalls calls;

    private final ResiliencePipeline pipeline = ResiliencePipeline.builder("quotes").executor(Runnable::run).build();

    ObservedCallsTests() {
        this.registry.observationConfig().observationHandler(this.recorded);
        this.calls = new ObservedCalls(this.registry);
    }

    @Test
    void callOnThisThreadRunsItsAttemptInItsObservation() {
        AtomicReference<Observation> current = new AtomicReference<>();

        ExecutionResult<String> result = this.calls.execute(this.pipeline, "GET /quotes", () -> {
            current.set(this.registry.getCurrentObservation());
            return "ETH 3100";
        });

        assertThat(result.value()).isEqualTo("ETH 3100");
        assertThat(this.recorded.stopped()).singleElement().satisfies((context) -> {
            assertThat(context.getName()).isEqualTo(CallObserver.OBSERVATION_NAME);
            assertThat(context.getLowCardinalityKeyValues()).containsExactlyInAnyOrder(KeyValue.of("name", "quotes"),
                    KeyValue.of("status", "success"), KeyValue.of("fallback", "false"));
            assertThat(current.get().getContext()).isSameAs(context);
        });
        assertThat(this.registry.getCurrentObservation()).isNull();
    }

    @Test
    void attemptsSubscribeWithTheSubscribersContextAndTheCallsObservationInIt() {
        AtomicReference<Object> attemptContext = new AtomicReference<>();

        CompletableFuture<ExecutionResult<String>> call = this.calls.executeAsync(this.pipeline, "GET /quotes",
                Context.of("tenant", "acme"), (context) -> {
                    attemptContext.set(context);
                    return () -> CompletableFuture.completedFuture("ETH 3100");
                });

        assertThat(call).isCompletedWithValueMatching((result) -> "ETH 3100".equals(result.value()));
        Observation.Context stopped = this.recorded.stopped().get(0);
        assertThat(attemptContext.get()).isInstanceOfSatisfying(ContextView.class, (context) -> {
            assertThat(context.<String>get("tenant")).isEqualTo("acme");
            assertThat(context.<Observation>get(ObservationThreadLocalAccessor.KEY).getContext()).isSameAs(stopped);
        });
    }

    @Test
    void cancellingTheCallCancelsTheRunningAttemptAndStopsTheObservationOnceWithTheCancellation() {
        CompletableFuture<String> running = new CompletableFuture<>();
        CompletableFuture<ExecutionResult<String>> call = this.calls.executeAsync(this.pipeline, "GET /quotes",
                Context.empty(), (context) -> () -> running);
        assertThat(this.recorded.stopped()).isEmpty();

        call.cancel(true);

        assertThat(running).isCancelled();
        assertThat(this.recorded.started()).hasSize(1);
        assertThat(this.recorded.stopped()).singleElement().satisfies((context) -> {
            assertThat(context.getError()).isInstanceOf(CancellationException.class);
            assertThat(context.getLowCardinalityKeyValue("status").getValue()).isEqualTo("error");
        });
    }

    @Test
    void callThatCannotStartStopsItsObservationWithTheErrorAndThrowsIt() {
        assertThatIllegalStateException()
            .isThrownBy(() -> this.calls.executeAsync(this.pipeline, "GET /quotes", Context.empty(), (context) -> {
                throw new IllegalStateException("no exchange");
            }));

        List<Observation.Context> stopped = this.recorded.stopped();
        assertThat(stopped).singleElement()
            .satisfies((context) -> assertThat(context.getError()).hasMessage("no exchange"));
    }

    @Test
    void handlerFailingToStartTheObservationLeavesNoMeterHandlerSampleRunning() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        registry.observationConfig().observationHandler(new FailingHandler(true, false));
        ObservedCalls failingOnStart = new ObservedCalls(registry);

        ExecutionResult<String> result = failingOnStart.execute(this.pipeline, "GET /quotes", () -> "ETH 3100");

        assertThat(result.value()).isEqualTo("ETH 3100");
        LongTaskTimer active = meters.find(CallObserver.OBSERVATION_NAME + ".active").longTaskTimer();
        assertThat(active).isNotNull().extracting(LongTaskTimer::activeTasks).isEqualTo(0);
        Timer calls = meters.find(CallObserver.OBSERVATION_NAME).tag("status", "success").timer();
        assertThat(calls).isNotNull().extracting(Timer::count).isEqualTo(1L);
        assertThat(calls.getId().getTags()).extracting(Tag::getKey).contains("name", "status", "fallback");
        assertThat(registry.getCurrentObservation()).isNull();
    }

    @Test
    void asyncCallCompletesWithTheErrorOfAHandlerThatThrowsAnErrorOnStop() {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new FailingHandler(false, true));
        ObservedCalls failingOnStop = new ObservedCalls(registry);

        CompletableFuture<ExecutionResult<String>> call = failingOnStop.executeAsync(this.pipeline, "GET /quotes",
                Context.empty(), (context) -> () -> CompletableFuture.completedFuture("ETH 3100"));

        assertThat(call).isDone();
        assertThatExceptionOfType(CompletionException.class).isThrownBy(call::join)
            .havingCause()
            .isInstanceOf(AssertionError.class)
            .withMessage("handler failed on stop");
    }

    /**
     * A handler with a bug: it throws when an observation starts, or an {@link Error}
     * when one stops.
     */
    private static final class FailingHandler implements ObservationHandler<Observation.Context> {

        private final boolean onStart;

        private final boolean onStop;

        FailingHandler(boolean onStart, boolean onStop) {
            this.onStart = onStart;
            this.onStop = onStop;
        }

        @Override
        public void onStart(Observation.Context context) {
            if (this.onStart) {
                throw new IllegalStateException("handler failed on start");
            }
        }

        @Override
        public void onStop(Observation.Context context) {
            if (this.onStop) {
                throw new AssertionError("handler failed on stop");
            }
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }

    }

}
