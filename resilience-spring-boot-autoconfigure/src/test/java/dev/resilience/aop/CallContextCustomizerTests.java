package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionListener;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CallContextCustomizer}.
 */
class CallContextCustomizerTests {

    private final Method method = ReflectionUtils.findMethod(CallContextCustomizerTests.class, "feed");

    @Test
    void subscriberContextOfAFluxCallIsTheSubscribersReactorContextNotTheCallsOwnState() {
        List<Object> seen = new ArrayList<>();
        @SuppressWarnings("unchecked")
        Flux<Object> calls = (Flux<Object>) FluxCalls.of((call) -> {
            CallContext context = new CallContext("feed", this, new MethodArguments(this.method, new Object[0], call),
                    null, "", ExecutionListener.NONE, "");
            seen.add(CallContextCustomizer.subscriberContext(context));
            return Mono.<Object>empty().toFuture();
        });

        calls.contextWrite(Context.of("tenant", "acme")).collectList().block();

        assertThat(seen).singleElement()
            .isInstanceOfSatisfying(ContextView.class,
                    (view) -> assertThat(view.<String>get("tenant")).isEqualTo("acme"));
    }

    @Test
    void subscriberContextOfACallOfAPlainMethodIsNull() {
        CallContext context = new CallContext("feed", this, new MethodArguments(this.method, new Object[0]), null, "",
                ExecutionListener.NONE, "");

        assertThat(CallContextCustomizer.subscriberContext(context)).isNull();
    }

    @Test
    void customizersAddUpInTheOrderTheyAreGiven() {
        List<String> order = new ArrayList<>();
        CallContextCustomizer first = (context) -> {
            order.add("first");
            return context;
        };
        CallContextCustomizer composed = CallContextCustomizer.NONE.andThen(first).andThen((context) -> {
            order.add("second");
            return context;
        });

        composed.customize(new CallContext("feed", this, List.of(), null, "", ExecutionListener.NONE, ""));

        assertThat(order).containsExactly("first", "second");
        assertThat(CallContextCustomizer.NONE.andThen(first)).isSameAs(first);
    }

    Flux<String> feed() {
        return Flux.empty();
    }

}
