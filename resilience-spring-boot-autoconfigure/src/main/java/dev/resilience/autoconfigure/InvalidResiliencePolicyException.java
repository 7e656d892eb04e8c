package dev.resilience.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * The former name of {@link dev.resilience.registry.InvalidResiliencePolicyException},
 * kept so that code naming it still compiles. The library no longer throws this type: a
 * {@code catch} of it catches nothing, so catch the new type instead.
 *
 * @deprecated since 0.1.0, for removal; use
 * {@link dev.resilience.registry.InvalidResiliencePolicyException}
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public class InvalidResiliencePolicyException extends dev.resilience.registry.InvalidResiliencePolicyException {

    /**
     * Creates an exception for an invalid setting.
     * @param subject what the setting belongs to
     * @param setting where the value comes from
     * @param value the invalid value, as written
     * @param reason why the value is invalid
     * @param fix one sentence telling how to correct it
     */
    public InvalidResiliencePolicyException(String subject, String setting, String value, String reason, String fix) {
        super(subject, setting, value, reason, fix, null);
    }

    /**
     * Creates an exception for an invalid setting, caused by another exception.
     * @param subject what the setting belongs to
     * @param setting where the value comes from
     * @param value the invalid value, as written
     * @param reason why the value is invalid
     * @param fix one sentence telling how to correct it
     * @param cause the exception that revealed the problem, or {@code null}
     */
    public InvalidResiliencePolicyException(String subject, String setting, String value, String reason, String fix,
            @Nullable Throwable cause) {
        super(subject, setting, value, reason, fix, cause);
    }

}
