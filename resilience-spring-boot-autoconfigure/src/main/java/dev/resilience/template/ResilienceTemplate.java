package dev.resilience.template;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.registry.ResiliencePolicies;
import org.jspecify.annotations.Nullable;

/**
 * Runs code through named instances without annotations: the same policies, breakers,
 * budgets, statistics and dead letters as the annotated methods of those names. A retry
 * instance that annotations name runs with their settings, under the YAML of
 * {@code resilience.retry.instances.<name>} as for the annotated methods; one that no
 * annotation names is configured under {@code resilience.retry} alone. Pipelines are
 * built once per pair of names, at first use, and reused. The registry resolves a name
 * once, for its first user: a name first used here before the context has created its
 * singletons, when the annotated methods are compiled, is configured by the YAML alone,
 * for the annotated methods that name it too, and a warning at startup names each
 * annotation setting that does not apply. Thread-safe.
 *
 * <pre class="code">
 * ExecutionResult&lt;Quote&gt; quote = template.execute("quotes", "quote-service", () -&gt; client.fetchQuote(symbol));
 * </pre>
 */
public class ResilienceTemplate {

    private final ResiliencePolicies policies;

    private final Map<String, ResiliencePipeline> pipelines = new ConcurrentHashMap<>();

    /**
     * Creates a template over the application's policies.
     * @param policies the policies
     */
    public ResilienceTemplate(ResiliencePolicies policies) {
        this.policies = policies;
    }

    /**
     * Runs an action with the retry instance of a name.
     * @param retryName the retry instance: that of the annotated methods of the name, or
     * one configured under {@code resilience.retry}
     * @param action the action
     * @param <T> the type of its value
     * @return the complete account of the call
     */
    public <T> ExecutionResult<T> execute(String retryName, Callable<? extends T> action) {
        return pipeline(retryName, null).execute(action);
    }

    /**
     * Runs an action with a retry instance and a circuit breaker.
     * @param retryName the retry instance: that of the annotated methods of the name, or
     * one configured under {@code resilience.retry}
     * @param circuitBreakerName the breaker: the one breaker of the name, shared with the
     * annotated methods that name it, or one configured under
     * {@code resilience.circuit-breaker}
     * @param action the action
     * @param <T> the type of its value
     * @return the complete account of the call
     */
    public <T> ExecutionResult<T> execute(String retryName, String circuitBreakerName, Callable<? extends T> action) {
        return pipeline(retryName, circuitBreakerName).execute(action);
    }

    /**
     * Returns the pipeline of a retry instance and, optionally, a breaker, for
     * asynchronous calls and for call contexts with idempotency keys or dead-letter
     * details.
     * @param retryName the retry instance
     * @param circuitBreakerName the breaker, or {@code null} for none
     * @return the shared pipeline
     */
    public ResiliencePipeline pipeline(String retryName, @Nullable String circuitBreakerName) {
        String key = (circuitBreakerName != null) ? retryName + '\u0000' + circuitBreakerName : retryName;
        return this.pipelines.computeIfAbsent(key, (ignored) -> {
            ResiliencePipeline.Builder builder = this.policies.pipeline(retryName)
                .retry(this.policies.registry().retry(retryName));
            if (circuitBreakerName != null) {
                builder.circuitBreaker(this.policies.registry().circuitBreaker(circuitBreakerName));
            }
            return builder.build();
        });
    }

}
