package dev.resilience.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.CallContext;
import dev.resilience.core.ExecutionListener;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CallContextCustomizer#subscriberContext} gives a customizer the Reactor context
 * of the subscriber of a call of a method returning {@code Mono} or {@code Flux}, and
 * nothing for any other call; customizers add up.
 */
class CallContextCustomizerTests {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class))
        .withPropertyValues("resilience.async.executor=callerRunsExecutor")
        .withBean("callerRunsExecutor", Executor.class, () -> Runnable::run)
        .withBean(Ledger.class);

    @Test
    void subscriberContextOfEachKindOfCallIsTheSubscribersReactorContextOrNothing() {
        this.contextRunner.run((context) -> {
            List<String> seen = new CopyOnWriteArrayList<>();
            context.getBean(ResilientMethods.class).customizeCalls((call) -> {
                Object subscriber = CallContextCustomizer.subscriberContext(call);
                seen.add((subscriber instanceof ContextView view) ? view.getOrDefault("exchange", "none")
                        : String.valueOf(subscriber));
                return call;
            });
            Ledger ledger = context.getBean(Ledger.class);

            StepVerifier.create(ledger.balance().contextWrite(Context.of("exchange", "mono")))
                .expectNext("balance")
                .expectComplete()
                .verify(BOUND);
            StepVerifier.create(ledger.entries().contextWrite(Context.of("exchange", "flux")))
                .expectNext("entry-1", "entry-2")
                .expectComplete()
                .verify(BOUND);
            assertThat(ledger.total()).isEqualTo(3);

            assertThat(seen).containsExactly("mono", "flux", "null");
        });
    }

    @Test
    void customizersAddUpInTheOrderTheyAreGiven() {
        List<String> order = new ArrayList<>();
        CallContextCustomizer first = (call) -> {
            order.add("first");
            return call;
        };
        CallContextCustomizer composed = CallContextCustomizer.NONE.andThen(first).andThen((call) -> {
            order.add("second");
            return call;
        });

        composed.customize(new CallContext("feed", this, List.of(), null, "", ExecutionListener.NONE, ""));

        assertThat(order).containsExactly("first", "second");
        assertThat(CallContextCustomizer.NONE.andThen(first)).isSameAs(first);
    }

    static class Ledger {

        @Retryable(value = "ledger-balance", maxAttempts = 1)
        public Mono<String> balance() {
            return Mono.just("balance");
        }

        @Retryable(value = "ledger-entries", maxAttempts = 1)
        public Flux<String> entries() {
            return Flux.just("entry-1", "entry-2");
        }

        @Retryable(value = "ledger-total", maxAttempts = 1)
        public int total() {
            return 3;
        }

    }

}
