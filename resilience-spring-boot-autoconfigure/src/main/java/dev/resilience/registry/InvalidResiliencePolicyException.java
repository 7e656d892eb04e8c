package dev.resilience.registry;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at startup when an annotation attribute or a property cannot make a valid
 * policy. It names what is wrong precisely enough for the auto-configuration's failure
 * analyzer ({@code ResiliencePolicyFailureAnalyzer}) to tell the user where and how to
 * fix it. It lives beside the policies, not in the auto-configuration, so that the types
 * that compile methods and resolve instances can throw it without depending on
 * configuration classes.
 */
public class InvalidResiliencePolicyException extends RuntimeException {

    private final String subject;

    private final String setting;

    private final String value;

    private final String reason;

    private final String fix;

    /**
     * Creates an exception for an invalid setting.
     * @param subject what the setting belongs to, for example the retry instance's name
     * @param setting where the value comes from, for example {@code @Retryable(delay)} or
     * {@code resilience.retry.instances.payment.delay}
     * @param value the invalid value, as written
     * @param reason why the value is invalid
     * @param fix one sentence telling how to correct it
     */
    public InvalidResiliencePolicyException(String subject, String setting, String value, String reason, String fix) {
        this(subject, setting, value, reason, fix, null);
    }

    /**
     * Creates an exception for an invalid setting, caused by another exception.
     * @param subject what the setting belongs to, for example the retry instance's name
     * @param setting where the value comes from
     * @param value the invalid value, as written
     * @param reason why the value is invalid
     * @param fix one sentence telling how to correct it
     * @param cause the exception that revealed the problem, or {@code null}
     */
    public InvalidResiliencePolicyException(String subject, String setting, String value, String reason, String fix,
            @Nullable Throwable cause) {
        super("Invalid value '" + value + "' of " + setting + " for '" + subject + "': " + reason, cause);
        this.subject = subject;
        this.setting = setting;
        this.value = value;
        this.reason = reason;
        this.fix = fix;
    }

    /**
     * Returns what the setting belongs to.
     * @return the subject, for example the retry instance's name
     */
    public String getSubject() {
        return this.subject;
    }

    /**
     * Returns where the invalid value comes from.
     * @return the annotation attribute or the property name
     */
    public String getSetting() {
        return this.setting;
    }

    /**
     * Returns the invalid value.
     * @return the value, as written
     */
    public String getValue() {
        return this.value;
    }

    /**
     * Returns why the value is invalid.
     * @return the reason
     */
    public String getReason() {
        return this.reason;
    }

    /**
     * Returns how to correct the value.
     * @return one sentence
     */
    public String getFix() {
        return this.fix;
    }

    /**
     * Returns the same problem told of another subject, for example with the bean and
     * method that named the instance.
     * @param subject the new subject
     * @return a new exception, caused by this one
     */
    public InvalidResiliencePolicyException about(String subject) {
        return new InvalidResiliencePolicyException(subject, getSetting(), getValue(), getReason(), getFix(), this);
    }

}
