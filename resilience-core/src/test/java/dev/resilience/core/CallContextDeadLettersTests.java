package dev.resilience.core;

import java.io.IOException;
import java.util.List;

import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call whose context names where its dead letter goes writes it there, not in the
 * pipeline's store.
 */
class CallContextDeadLettersTests {

    private final InMemoryDeadLetterStore pipelineStore = new InMemoryDeadLetterStore();

    private final InMemoryDeadLetterStore callStore = new InMemoryDeadLetterStore();

    private final ResiliencePipeline pipeline = ResiliencePipeline.builder("shipping")
        .timeSource(new VirtualTimeSource())
        .retry(RetryPolicy.builder().maxAttempts(2).backoff(Backoff.none()).build())
        .deadLetters(this.pipelineStore)
        .build();

    @Test
    void deadLetterOfACallWithItsOwnStoreGoesThereAlone() {
        CallContext context = CallContext.of("Shipping#ship", List.of("parcel-1"))
            .withDeadLetters(this.callStore)
            .withListener(new ExecutionListener() {
            })
            .withIdempotencyScope("");

        ExecutionResult<String> result = this.pipeline.execute(context, () -> {
            throw new IOException("carrier down");
        });

        assertThat(result.status()).isEqualTo(ExecutionStatus.ERROR);
        assertThat(this.pipelineStore.size()).isZero();
        assertThat(this.callStore.list(10)).singleElement().satisfies((letter) -> {
            assertThat(letter.method()).isEqualTo("Shipping#ship");
            assertThat(letter.arguments()).containsExactly("\"parcel-1\"");
            assertThat(letter.attempts()).isEqualTo(2);
        });
    }

    @Test
    void callWithoutItsOwnStoreWritesToThePipelines() {
        this.pipeline.execute(CallContext.of("Shipping#ship", List.of("parcel-2")), () -> {
            throw new IOException("carrier down");
        });

        assertThat(this.pipelineStore.size()).isOne();
        assertThat(this.callStore.size()).isZero();
    }

}
