package dev.resilience.core;

import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the asynchronous driver reads the failure of a done stage: the instance the stage
 * was completed with, on every JDK.
 */
class FuturesTests {

    @Test
    void failureOfACancelledStageIsTheCancellationItWasCompletedWith() {
        CancellationException timedOut = new CancellationException("timed out") {
        };
        CompletableFuture<String> stage = new CompletableFuture<>();
        stage.completeExceptionally(timedOut);

        assertThat(Futures.failureOf(stage)).isSameAs(timedOut);
    }

    @Test
    void failureOfACancelledFutureIsItsCancellation() {
        CompletableFuture<String> stage = new CompletableFuture<>();
        stage.cancel(true);

        assertThat(Futures.failureOf(stage)).isInstanceOf(CancellationException.class);
    }

    @Test
    void failureOfAStageIsUnwrappedFromTheCompletionExceptionOfADependentStage() {
        IOException down = new IOException("down");
        CompletableFuture<String> dependent = CompletableFuture.<String>failedFuture(down).thenApply((value) -> value);

        assertThat(Futures.failureOf(dependent)).isSameAs(down);
    }

    @Test
    void failureOfAStageCompletedWithACompletionExceptionIsItsCause() {
        IOException down = new IOException("down");
        CompletableFuture<String> stage = new CompletableFuture<>();
        stage.completeExceptionally(new CompletionException(down));

        assertThat(Futures.failureOf(stage)).isSameAs(down);
    }

    @Test
    void failureOfAStageThatSucceededOrRunsIsNull() {
        assertThat(Futures.failureOf(CompletableFuture.completedFuture("ok"))).isNull();
        assertThat(Futures.failureOf(new CompletableFuture<>())).isNull();
    }

}
