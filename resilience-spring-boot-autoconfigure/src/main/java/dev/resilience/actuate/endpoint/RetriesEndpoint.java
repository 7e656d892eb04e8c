package dev.resilience.actuate.endpoint;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import dev.resilience.core.time.Durations;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.retry.Backoff;
import dev.resilience.core.retry.RetryBudget;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.registry.CallStatistics;
import dev.resilience.registry.ResilienceRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code retries} endpoint: every retry instance's resolved settings and the counts
 * of its calls, retries, fallbacks and budget refusals.
 */
@Endpoint(id = "retries")
public class RetriesEndpoint {

    private final ResilienceRegistry registry;

    /**
     * Creates the endpoint.
     * @param registry the instances to report
     */
    public RetriesEndpoint(ResilienceRegistry registry) {
        this.registry = registry;
    }

    /**
     * Reports every retry instance, by name.
     * @return the retry instances
     */
    @ReadOperation
    public RetriesDescriptor retries() {
        SortedMap<String, RetryDescriptor> retries = new TreeMap<>();
        this.registry.retryPolicies()
            .forEach((name, policy) -> retries.put(name, describe(policy, this.registry.statistics(name))));
        return new RetriesDescriptor(retries);
    }

    private static RetryDescriptor describe(RetryPolicy policy, CallStatistics statistics) {
        Backoff backoff = policy.backoff();
        RetryBudget budget = policy.budget();
        Map<String, Long> calls = new LinkedHashMap<>();
        for (ExecutionStatus status : ExecutionStatus.values()) {
            calls.put(status.name().toLowerCase(Locale.ROOT), statistics.calls(status));
        }
        return new RetryDescriptor(policy.maxAttempts(), Durations.format(backoff.delay()), backoff.multiplier(),
                Durations.format(backoff.maxDelay()), backoff.jitter().name().toLowerCase(Locale.ROOT),
                Descriptors.classNames(policy.retryOn()), Descriptors.classNames(policy.abortOn()),
                Descriptors.durationOrNull(policy.attemptTimeout()), Descriptors.durationOrNull(policy.maxDuration()),
                (budget != null) ? new BudgetDescriptor(budget.ratio(), budget.minRetriesPerSecond(),
                        Durations.format(budget.window())) : null,
                calls, statistics.retries(), statistics.fallbacksUsed(), statistics.budgetRefused());
    }

    /**
     * The retry instances of the application.
     *
     * @param retries each instance, by name
     */
    public record RetriesDescriptor(Map<String, RetryDescriptor> retries) {
    }

    /**
     * One retry instance.
     *
     * @param maxAttempts all attempts, the first included
     * @param delay the first backoff delay
     * @param multiplier the exponential factor of the backoff
     * @param maxDelay the longest backoff delay
     * @param jitter the jitter mode, in lower case
     * @param retryOn the exceptions retried; empty means every one not aborted on
     * @param abortOn the exceptions never retried
     * @param attemptTimeout the timeout of each attempt, or {@code null} for none
     * @param maxDuration the deadline of the whole call, or {@code null} for none
     * @param budget the retry budget, or {@code null} when retries are not budgeted
     * @param calls the calls by how they ended: success, failure, error, timeout,
     * rejected
     * @param retries the retries made
     * @param fallbacks the calls a fallback answered
     * @param budgetRefused the retries the budget refused
     */
    public record RetryDescriptor(int maxAttempts, String delay, double multiplier, String maxDelay, String jitter,
            List<String> retryOn, List<String> abortOn, @JsonInclude(Include.ALWAYS) @Nullable String attemptTimeout,
            @JsonInclude(Include.ALWAYS) @Nullable String maxDuration,
            @JsonInclude(Include.ALWAYS) @Nullable BudgetDescriptor budget, Map<String, Long> calls, long retries,
            long fallbacks, long budgetRefused) {
    }

    /**
     * A retry budget.
     *
     * @param ratio the share of calls that may be retried in the window
     * @param minRetriesPerSecond the retries always allowed per second
     * @param window the length of the window
     */
    public record BudgetDescriptor(double ratio, int minRetriesPerSecond, String window) {
    }

}
