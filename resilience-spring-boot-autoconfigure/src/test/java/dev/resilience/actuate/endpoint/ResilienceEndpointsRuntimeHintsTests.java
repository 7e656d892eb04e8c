package dev.resilience.actuate.endpoint;

import dev.resilience.autoconfigure.ResilienceEndpointsAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.annotation.ImportRuntimeHints;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoints' hints bind every descriptor they answer with, the nested ones included,
 * and the endpoints' auto-configuration imports them.
 */
class ResilienceEndpointsRuntimeHintsTests {

    private static final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

    private final RuntimeHints hints = new RuntimeHints();

    ResilienceEndpointsRuntimeHintsTests() {
        new ResilienceEndpointsRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
    }

    @Test
    void isImportedByTheEndpointsAutoConfiguration() {
        assertThat(ResilienceEndpointsAutoConfiguration.class.getAnnotation(ImportRuntimeHints.class).value())
            .containsExactly(ResilienceEndpointsRuntimeHints.class);
    }

    @Test
    void circuitBreakerDescriptorsAreBoundWithTheirConfigAndEvents() {
        assertThat(this.hints)
            .matches(reflection.onMethodInvocation(CircuitBreakersEndpoint.CircuitBreakersDescriptor.class,
                    "circuitBreakers"))
            .matches(reflection.onMethodInvocation(CircuitBreakersEndpoint.CircuitBreakerDescriptor.class, "state"))
            .matches(reflection.onMethodInvocation(CircuitBreakersEndpoint.CircuitBreakerDetailsDescriptor.class,
                    "events"))
            .matches(reflection.onMethodInvocation(CircuitBreakersEndpoint.ConfigDescriptor.class, "slidingWindowSize"))
            .matches(reflection.onMethodInvocation(CircuitBreakersEndpoint.EventDescriptor.class, "type"));
    }

    @Test
    void retryBulkheadAndRateLimiterDescriptorsAreBound() {
        assertThat(this.hints)
            .matches(reflection.onMethodInvocation(RetriesEndpoint.RetryDescriptor.class, "maxAttempts"))
            .matches(reflection.onMethodInvocation(RetriesEndpoint.BudgetDescriptor.class, "ratio"))
            .matches(reflection.onMethodInvocation(BulkheadsEndpoint.BulkheadDescriptor.class, "maxConcurrentCalls"))
            .matches(reflection.onMethodInvocation(RateLimitersEndpoint.RateLimiterDescriptor.class, "limit"));
    }

    @Test
    void deadLetterAndChaosDescriptorsAreBound() {
        assertThat(this.hints)
            .matches(reflection.onMethodInvocation(DeadLettersEndpoint.DeadLettersDescriptor.class, "deadLetters"))
            .matches(reflection.onMethodInvocation(DeadLettersEndpoint.DeadLetterDescriptor.class, "arguments"))
            .matches(reflection.onMethodInvocation(DeadLettersEndpoint.RedriveDescriptor.class, "outcome"))
            .matches(reflection.onMethodInvocation(ChaosEndpoint.ChaosInstanceDescriptor.class, "failureRate"))
            .matches(reflection.onMethodInvocation(ChaosEndpoint.InjectedDescriptor.class, "failure"));
    }

}
