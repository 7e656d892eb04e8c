package dev.resilience.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GuardsTests {

    private final List<String> heard = new ArrayList<>();

    @Test
    void guardsAdmitInTheirOrderAndHearOutcomesInnermostFirst() {
        Guards guards = new Guards(List.of(new Recording("bulkhead", AttemptGuard.BULKHEAD, false),
                new Recording("limiter", AttemptGuard.RATE_LIMITER, false),
                new Recording("breaker", AttemptGuard.CIRCUIT_BREAKER, false)), Runnable::run);

        Object pass = guards.admit();
        guards.succeeded(pass, 5);

        assertThat(this.heard).containsExactly("limiter admit", "breaker admit", "bulkhead admit",
                "bulkhead succeeded bulkhead-pass", "breaker succeeded breaker-pass", "limiter succeeded limiter-pass");
    }

    @Test
    void aGuardThatThrowsOnAnOutcomeNeitherThrowsNorKeepsTheOthersFromHearingIt() {
        Guards guards = new Guards(List.of(new Recording("limiter", AttemptGuard.RATE_LIMITER, false),
                new Recording("breaker", AttemptGuard.CIRCUIT_BREAKER, true),
                new Recording("bulkhead", AttemptGuard.BULKHEAD, false)), Runnable::run);
        Object pass = guards.admit();

        guards.failed(pass, 5, new RuntimeException("down"));

        assertThat(this.heard).endsWith("bulkhead failed bulkhead-pass", "limiter failed limiter-pass");
    }

    @Test
    void anErrorOfAGuardHearingAnOutcomeIsRethrownOnceEveryOtherGuardHasHeardIt() {
        Guards guards = new Guards(List.of(new Recording("limiter", AttemptGuard.RATE_LIMITER, false),
                new Breaking(AttemptGuard.CIRCUIT_BREAKER), new Recording("bulkhead", AttemptGuard.BULKHEAD, false)),
                Runnable::run);

        assertThatThrownBy(() -> guards.succeeded(CallContext.empty(), guards.admit(), 5, "value"))
            .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> guards.failed(guards.admit(), 5, new RuntimeException("down")))
            .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> guards.abandoned(guards.admit())).isInstanceOf(AssertionError.class);

        assertThat(this.heard).containsExactly("limiter admit", "bulkhead admit", "bulkhead succeeded bulkhead-pass",
                "limiter succeeded limiter-pass", "limiter admit", "bulkhead admit", "bulkhead failed bulkhead-pass",
                "limiter failed limiter-pass", "limiter admit", "bulkhead admit", "bulkhead abandoned bulkhead-pass",
                "limiter abandoned limiter-pass");
    }

    @Test
    void theGuardsAfterOneThatMadeAnAsynchronousAttemptWaitAreAskedOnTheExecutor() {
        List<Runnable> queued = new ArrayList<>();
        Waiting waiting = new Waiting();
        Guards guards = new Guards(List.of(new Recording("limiter", AttemptGuard.RATE_LIMITER, false), waiting,
                new Recording("bulkhead", AttemptGuard.BULKHEAD, false)), queued::add);
        CompletableFuture<Object> admission = guards.admitAsync();

        waiting.pending.complete("waiting-pass");
        assertThat(this.heard).as("asked on the thread that ended the wait").containsExactly("limiter admit");
        queued.remove(0).run();

        assertThat(admission).isCompleted();
        assertThat(this.heard).containsExactly("limiter admit", "bulkhead admit");
    }

    @Test
    void whenTheExecutorDropsTheAdmissionAfterAWaitThePassesAreGivenBackAndTheAdmissionFails() {
        List<Runnable> queued = new ArrayList<>();
        Waiting waiting = new Waiting();
        Guards guards = new Guards(List.of(new Recording("limiter", AttemptGuard.RATE_LIMITER, false), waiting,
                new Recording("bulkhead", AttemptGuard.BULKHEAD, false)), queued::add);
        CompletableFuture<Object> admission = guards.admitAsync();
        waiting.pending.complete("waiting-pass");

        ((Future<?>) queued.remove(0)).cancel(false);

        assertThat(admission).failsWithin(Duration.ZERO)
            .withThrowableThat()
            .withCauseInstanceOf(RejectedExecutionException.class);
        assertThat(this.heard).containsExactly("limiter admit", "waiting abandoned waiting-pass",
                "limiter abandoned limiter-pass");
    }

    @Test
    void whenTheExecutorRefusesTheAdmissionAfterAWaitThePassesAreGivenBackAndTheAdmissionFails() {
        Waiting waiting = new Waiting();
        Guards guards = new Guards(List.of(new Recording("limiter", AttemptGuard.RATE_LIMITER, false), waiting,
                new Recording("bulkhead", AttemptGuard.BULKHEAD, false)), (task) -> {
                    throw new RejectedExecutionException("shut down");
                });
        CompletableFuture<Object> admission = guards.admitAsync();

        waiting.pending.complete("waiting-pass");

        assertThat(admission).failsWithin(Duration.ZERO)
            .withThrowableThat()
            .withCauseInstanceOf(RejectedExecutionException.class)
            .withMessageContaining("shut down");
        assertThat(this.heard).containsExactly("limiter admit", "waiting abandoned waiting-pass",
                "limiter abandoned limiter-pass");
    }

    @Test
    void aRefusalAbandonsThePassesOfTheGuardsBeforeIt() {
        Guards guards = new Guards(List.of(new Recording("limiter", AttemptGuard.RATE_LIMITER, false),
                new Refusing(AttemptGuard.CIRCUIT_BREAKER), new Recording("bulkhead", AttemptGuard.BULKHEAD, false)),
                Runnable::run);

        assertThatIllegalStateException().isThrownBy(guards::admit).withMessage("refused");
        assertThat(this.heard).containsExactly("limiter admit", "limiter abandoned limiter-pass");
    }

    @Test
    void withoutGuardsEveryAttemptIsAdmittedAndNothingIsHeard() {
        Guards guards = new Guards(List.of(), Runnable::run);

        guards.succeeded(guards.admit(), 5);
        guards.abandoned(guards.admit());

        assertThat(this.heard).isEmpty();
    }

    private final class Recording implements AttemptGuard<String> {

        private final String name;

        private final int order;

        private final boolean throwsOnOutcome;

        Recording(String name, int order, boolean throwsOnOutcome) {
            this.name = name;
            this.order = order;
            this.throwsOnOutcome = throwsOnOutcome;
        }

        @Override
        public int order() {
            return this.order;
        }

        @Override
        public String admit() {
            GuardsTests.this.heard.add(this.name + " admit");
            return this.name + "-pass";
        }

        @Override
        public void succeeded(String pass, long durationNanos) {
            hear("succeeded " + pass);
        }

        @Override
        public void failed(String pass, long durationNanos, Throwable failure) {
            hear("failed " + pass);
        }

        @Override
        public void abandoned(String pass) {
            hear("abandoned " + pass);
        }

        private void hear(String event) {
            if (this.throwsOnOutcome) {
                throw new IllegalStateException(this.name + " broke");
            }
            GuardsTests.this.heard.add(this.name + " " + event);
        }

    }

    /** A breaker's place whose admission of an asynchronous attempt waits for a test. */
    private final class Waiting implements AttemptGuard<String> {

        private final CompletableFuture<String> pending = new CompletableFuture<>();

        @Override
        public int order() {
            return CIRCUIT_BREAKER;
        }

        @Override
        public String admit() {
            throw new AssertionError("asynchronous attempts only");
        }

        @Override
        public CompletableFuture<String> admitAsync() {
            return this.pending;
        }

        @Override
        public void succeeded(String pass, long durationNanos) {
            GuardsTests.this.heard.add("waiting succeeded " + pass);
        }

        @Override
        public void failed(String pass, long durationNanos, Throwable failure) {
            GuardsTests.this.heard.add("waiting failed " + pass);
        }

        @Override
        public void abandoned(String pass) {
            GuardsTests.this.heard.add("waiting abandoned " + pass);
        }

    }

    /** A guard whose every hearing throws an {@link Error}, as a broken predicate may. */
    private static final class Breaking implements AttemptGuard<String> {

        private final int order;

        Breaking(int order) {
            this.order = order;
        }

        @Override
        public int order() {
            return this.order;
        }

        @Override
        public String admit() {
            return "breaking-pass";
        }

        @Override
        public void succeeded(String pass, long durationNanos) {
            throw new AssertionError("broke on a value");
        }

        @Override
        public void failed(String pass, long durationNanos, Throwable failure) {
            throw new AssertionError("broke on a failure");
        }

        @Override
        public void abandoned(String pass) {
            throw new AssertionError("broke on a pass");
        }

    }

    private static final class Refusing implements AttemptGuard<String> {

        private final int order;

        Refusing(int order) {
            this.order = order;
        }

        @Override
        public int order() {
            return this.order;
        }

        @Override
        public String admit() {
            throw new IllegalStateException("refused");
        }

        @Override
        public void succeeded(String pass, long durationNanos) {
            throw new AssertionError("never admitted");
        }

        @Override
        public void failed(String pass, long durationNanos, Throwable failure) {
            throw new AssertionError("never admitted");
        }

        @Override
        public void abandoned(String pass) {
            throw new AssertionError("never admitted");
        }

    }

}
