package dev.resilience.autoconfigure;

import dev.resilience.registry.InvalidResiliencePolicyException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start that failed on an {@link InvalidResiliencePolicyException}: which
 * setting of which subject holds which value, why it is invalid, and how to fix it.
 */
public class ResiliencePolicyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidResiliencePolicyException> {

    /**
     * Describes the invalid setting and gives its fix as the action.
     * @param rootFailure the failure that stopped the start
     * @param cause the invalid-policy exception found in its causes
     * @return the analysis
     */
    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidResiliencePolicyException cause) {
        String description = String.format(
                "Invalid resilience setting of %s:%n%n    Setting: %s%n    Value: \"%s\"%n    Reason: %s%n",
                cause.getSubject(), cause.getSetting(), cause.getValue(), cause.getReason());
        return new FailureAnalysis(description, cause.getFix(), cause);
    }

}
