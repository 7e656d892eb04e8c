package dev.resilience.core.fallback;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;

import dev.resilience.core.AttemptTimeoutException;
import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.time.VirtualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Code written against the deprecated fallback types compiles and runs its fallbacks
 * through a pipeline as the same code written against {@code dev.resilience.core} does.
 */
@SuppressWarnings("removal")
class DeprecatedFallbackTypesTests {

    private final VirtualTimeSource clock = new VirtualTimeSource();

    @Test
    void deprecatedChainOfLambdaHandlersEndsACallAsTheSameChainOfTheNewTypes() {
        FallbackHandler.FallbackFunction defer = (error, call) -> "deferred:" + error.getMessage();
        FallbackChain deprecated = FallbackChain.of(
                FallbackHandler.of("onTimeout", AttemptTimeoutException.class, (error, call) -> "never"),
                FallbackHandler.of("deferPayment", defer));
        dev.resilience.core.FallbackChain current = dev.resilience.core.FallbackChain
            .of(dev.resilience.core.FallbackHandler.of("onTimeout", AttemptTimeoutException.class,
                    (error, call) -> "never"), dev.resilience.core.FallbackHandler.of("deferPayment", defer));

        ExecutionResult<String> old = pipeline().fallbacks(deprecated)
            .build()
            .execute(failing(new IOException("down")));
        ExecutionResult<String> now = pipeline().fallbacks(current).build().execute(failing(new IOException("down")));

        assertThat(old.status()).isEqualTo(ExecutionStatus.SUCCESS).isEqualTo(now.status());
        assertThat(old.value()).isEqualTo("deferred:down").isEqualTo(now.value());
        assertThat(old.fallbackUsed()).isTrue().isEqualTo(now.fallbackUsed());
        assertThat(old.fallbackIndex()).isEqualTo(2).isEqualTo(now.fallbackIndex());
        assertThat(old.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "deferPayment")
            .isEqualTo(now.metadata());
    }

    @Test
    void handlerImplementingTheDeprecatedInterfaceRunsInTheDeprecatedChainAndInTheNewOne() {
        FallbackHandler cached = new CachedQuote();
        FallbackChain deprecated = new FallbackChain(List.of(cached), List.of(), List.of(IllegalStateException.class));
        dev.resilience.core.FallbackChain current = new dev.resilience.core.FallbackChain(List.of(cached), List.of(),
                List.of(IllegalStateException.class));

        ExecutionResult<String> old = pipeline().fallbacks(deprecated)
            .build()
            .execute(failing(new IOException("down")));
        ExecutionResult<String> now = pipeline().fallbacks(current).build().execute(failing(new IOException("down")));
        ExecutionResult<String> oldSkipped = pipeline().fallbacks(deprecated)
            .build()
            .execute(failing(new IllegalStateException("closed")));
        ExecutionResult<String> nowSkipped = pipeline().fallbacks(current)
            .build()
            .execute(failing(new IllegalStateException("closed")));

        assertThat(old.status()).isEqualTo(ExecutionStatus.SUCCESS).isEqualTo(now.status());
        assertThat(old.value()).isEqualTo("cached").isEqualTo(now.value());
        assertThat(old.metadata()).containsEntry(ExecutionResult.FALLBACK_NAME, "cachedQuote")
            .isEqualTo(now.metadata());
        assertThat(oldSkipped.status()).isEqualTo(ExecutionStatus.ERROR).isEqualTo(nowSkipped.status());
        assertThat(oldSkipped.fallbackUsed()).isFalse().isEqualTo(nowSkipped.fallbackUsed());
        assertThat(oldSkipped.metadata()).doesNotContainKey(ExecutionResult.FALLBACK_NAME)
            .isEqualTo(nowSkipped.metadata());
    }

    @Test
    void deprecatedChainBecomesANewChainOfTheSameHandlersAndFilters() {
        FallbackHandler cached = new CachedQuote();
        FallbackHandler defer = FallbackHandler.of("deferPayment", IOException.class, (error, call) -> "deferred");
        FallbackChain deprecated = new FallbackChain(List.of(cached, defer), List.of(IOException.class),
                List.of(IllegalStateException.class));

        dev.resilience.core.FallbackChain current = deprecated.get();

        assertThat(current.handlers()).containsExactly(cached, defer);
        assertThat(current.applyOn()).containsExactly(IOException.class);
        assertThat(current.skipOn()).containsExactly(IllegalStateException.class);
        assertThat(current.handlers().get(1).appliesTo(new IOException("down"))).isTrue();
        assertThat(current.handlers().get(1).appliesTo(new IllegalArgumentException("bad"))).isFalse();
    }

    private ResiliencePipeline.Builder pipeline() {
        return ResiliencePipeline.builder("quote").timeSource(this.clock);
    }

    private static Callable<String> failing(Exception error) {
        return () -> {
            throw error;
        };
    }

    /**
     * A handler as applications wrote them against the deprecated interface.
     */
    private static final class CachedQuote implements FallbackHandler {

        @Override
        public String name() {
            return "cachedQuote";
        }

        @Override
        public boolean appliesTo(Throwable error) {
            return true;
        }

        @Override
        public @Nullable Object apply(Throwable error, CallContext call) {
            return "cached";
        }

    }

}
