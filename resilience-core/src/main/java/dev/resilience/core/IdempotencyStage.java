package dev.resilience.core;

import java.util.concurrent.Executor;

import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * The idempotency stage of a pipeline, the outermost: opens an {@link IdempotencyClaim}
 * for each call, which decides whether the method runs, and settles it when the call
 * ends.
 */
final class IdempotencyStage {

    private final @Nullable IdempotencyPolicy policy;

    private final TimeSource time;

    private final Executor executor;

    IdempotencyStage(@Nullable IdempotencyPolicy policy, TimeSource time, Executor executor) {
        this.policy = policy;
        this.time = time;
        this.executor = executor;
    }

    /**
     * Returns whether calls are idempotent, so that each needs its claim from the start.
     */
    boolean present() {
        return this.policy != null;
    }

    /**
     * Opens the claim of one call.
     * @return the claim, or {@code null} when calls are not idempotent
     */
    @Nullable IdempotencyClaim open() {
        IdempotencyPolicy idempotency = this.policy;
        return (idempotency != null) ? new IdempotencyClaim(idempotency, this.time, this.executor) : null;
    }

}
