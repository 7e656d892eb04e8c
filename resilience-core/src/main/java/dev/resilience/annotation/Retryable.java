package dev.resilience.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Retries the annotated method, with backoff, jitter, a retry budget, a per-attempt
 * timeout and an overall deadline.
 *
 * <p>
 * Settings left at their defaults here come from {@code resilience.retry.defaults};
 * settings under {@code resilience.retry.instances.<name>} override the annotation.
 * Durations use Spring's format ({@code "200ms"}, {@code "2s"}). On a class, applies to
 * the public methods the class declares itself: not to inherited ones, nor to
 * {@code toString}, {@code equals} and {@code hashCode}.
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Retryable {

    /**
     * Alias for {@link #name()}.
     * @return the instance name
     */
    String value() default "";

    /**
     * The retry instance's name, the key of its settings and meters; empty means
     * {@code SimpleClassName#method}.
     * @return the instance name
     */
    String name() default "";

    /**
     * All attempts, the first included; 0 means the configured default.
     * @return the maximum number of attempts
     */
    int maxAttempts() default 0;

    /**
     * The first backoff delay; empty means the configured default.
     * @return the delay
     */
    String delay() default "";

    /**
     * The exponential factor of the backoff; 0 means the configured default, 1 a fixed
     * delay.
     * @return the multiplier
     */
    double multiplier() default 0;

    /**
     * The longest backoff delay; empty means the configured default.
     * @return the maximum delay
     */
    String maxDelay() default "";

    /**
     * The jitter mode: {@code none}, {@code full}, {@code equal} or {@code decorrelated};
     * empty means the configured default.
     * @return the jitter mode
     */
    String jitter() default "";

    /**
     * The exceptions to retry; empty means every exception not in {@link #abortOn()}.
     * @return the retryable exception types
     */
    Class<? extends Throwable>[] retryOn() default {};

    /**
     * The exceptions never to retry.
     * @return the non-retryable exception types
     */
    Class<? extends Throwable>[] abortOn() default {};

    /**
     * The timeout of each attempt; empty means the configured default (none unless set).
     * @return the attempt timeout
     */
    String attemptTimeout() default "";

    /**
     * The deadline of the whole call, all attempts and delays included; empty means the
     * configured default (none unless set).
     * @return the maximum duration
     */
    String maxDuration() default "";

    /**
     * A SpEL expression over {@code #result}, the value an attempt returned (an
     * asynchronous method's stage value, a {@code Flux}'s first element or {@code null}
     * when it completes empty), and the method's parameters by name ({@code #orderId}, or
     * {@code #p0}/{@code #a0}); when it is {@code true} the attempt is retried as a
     * failure would be, such as {@code "#result.status() == 'PENDING'"}. A value still
     * rejected after the last attempt ends the call ERROR with a
     * {@code RejectedResultException} (or goes to the fallbacks); an expression that
     * throws or yields no boolean ends it ERROR with a {@code ResultPredicateException}.
     * Parsed at startup; empty means no result is retried.
     * @return the result predicate
     */
    String retryOnResult() default "";

}
