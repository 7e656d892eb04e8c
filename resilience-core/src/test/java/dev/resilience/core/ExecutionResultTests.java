package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.resilience.core.idempotency.IdempotencyException;
import dev.resilience.core.idempotency.IdempotencyKeyMismatchException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ExecutionResultTests {

    @Test
    void throwIfThrowsTheFinalErrorAsItIsWhenItIsOfTheType() {
        IdempotencyKeyMismatchException mismatch = new IdempotencyKeyMismatchException("k-1");
        ExecutionResult<String> result = failed(mismatch);

        assertThatExceptionOfType(IdempotencyException.class)
            .isThrownBy(() -> result.throwIf(IdempotencyException.class))
            .isSameAs(mismatch);
    }

    @Test
    void throwIfReturnsTheResultWhenTheErrorIsOfAnotherTypeOrThereIsNone() {
        ExecutionResult<String> failed = failed(new IOException("gateway down"));
        ExecutionResult<String> succeeded = ExecutionResult.success("paid");

        assertThat(failed.throwIf(IdempotencyException.class)).isSameAs(failed);
        assertThat(succeeded.throwIf(IdempotencyException.class)).isSameAs(succeeded);
    }

    private static ExecutionResult<String> failed(Throwable error) {
        return new ExecutionResult<>(ExecutionStatus.ERROR, null, error, 1, List.of(), Duration.ZERO, false, 0, false,
                Map.of());
    }

}
