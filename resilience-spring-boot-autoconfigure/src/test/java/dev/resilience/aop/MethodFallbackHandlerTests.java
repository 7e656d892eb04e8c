package dev.resilience.aop;

import java.io.IOException;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;

import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionListener;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * Fallback methods of a method returning {@code Mono}, called as the engine calls them: a
 * {@code Mono} is subscribed to with the subscriber's context, and a fallback declared to
 * return a {@code Mono} that returns {@code null} fails, as the guarded method does.
 */
class MethodFallbackHandlerTests {

    private final Fallbacks fallbacks = new Fallbacks();

    @Test
    void fallbackMonoIsSubscribedWithTheSubscribersContext() throws Throwable {
        Object value = handler("tenantQuote").apply(new IOException("down"), call(Context.of("tenant", "acme")));

        assertThat(value).isInstanceOfSatisfying(CompletableFuture.class,
                (future) -> assertThat(future).isCompletedWithValue("cached for acme"));
    }

    @Test
    void fallbackDeclaredToReturnAMonoThatReturnsNullFails() throws Exception {
        MethodFallbackHandler handler = handler("nullMono");

        assertThatNullPointerException().isThrownBy(() -> handler.apply(new IOException("down"), call(Context.empty())))
            .withMessage("Fallback method 'nullMono' returned null instead of a Mono");
    }

    @Test
    void plainFallbackReturningNullAnswersWithNoValue() throws Throwable {
        assertThat(handler("nullValue").apply(new IOException("down"), call(Context.empty()))).isNull();
    }

    private MethodFallbackHandler handler(String name) throws NoSuchMethodException {
        Method method = Fallbacks.class.getDeclaredMethod(name);
        return new MethodFallbackHandler(method, null, ReturnKind.MONO, false, false);
    }

    private CallContext call(Context subscriberContext) throws NoSuchMethodException {
        Method guarded = Fallbacks.class.getDeclaredMethod("quote");
        return new CallContext("Fallbacks#quote", this.fallbacks,
                new MethodArguments(guarded, new Object[0], subscriberContext), null, "", ExecutionListener.NONE);
    }

    static class Fallbacks {

        Mono<String> quote() {
            return Mono.error(new IOException("down"));
        }

        Mono<String> tenantQuote() {
            return Mono.deferContextual((context) -> Mono.just("cached for " + context.get("tenant")));
        }

        Mono<String> nullMono() {
            return null;
        }

        String nullValue() {
            return null;
        }

    }

}
