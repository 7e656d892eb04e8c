package dev.resilience.core;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.core.lastgood.InMemoryLastGoodStore;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LastGoodPipelineTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    @Test
    void aPipelineWithoutOtherPerCallStateKeepsTheValueOfItsFastPathAndServesIt() throws Exception {
        ResiliencePipeline pipeline = ResiliencePipeline.builder("price")
            .timeSource(this.clock)
            .lastGood(new LastGood(new InMemoryLastGoodStore(10, this.clock), Duration.ofHours(1), String.class,
                    (call) -> "eth", List.of(), List.of()))
            .build();
        AtomicBoolean down = new AtomicBoolean();

        assertThat(pipeline.<String>call(() -> "3000")).isEqualTo("3000");
        down.set(true);
        ExecutionResult<String> result = pipeline.execute(() -> {
            if (down.get()) {
                throw new IOException("oracle down");
            }
            return "never";
        });

        assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
        assertThat(result.value()).isEqualTo("3000");
        assertThat(result.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, LastGood.FALLBACK_NAME);
    }

}
