package dev.resilience.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Hedges the annotated method, for idempotent reads only: when an attempt has not
 * answered after {@link #delay()}, another try of it starts concurrently, up to
 * {@link #maxHedges()} extra tries; the first success wins (a value
 * {@code @Retryable(retryOnResult)} rejects counts as a failed try) and the other tries
 * are stopped. Each try passes the rate limiter, the breaker and the bulkhead on its own.
 * Within {@code @Retryable}, every attempt is such a race. Every method that names the
 * same hedging instance shares its settings and its {@code resilience.hedges} meters.
 *
 * <p>
 * Settings left at their defaults here come from {@code resilience.hedging.defaults};
 * settings under {@code resilience.hedging.instances.<name>} override the annotation.
 * Durations use Spring's format ({@code "50ms"}, {@code "1s"}). On a class, applies to
 * the public methods the class declares itself: not to inherited ones, nor to
 * {@code toString}, {@code equals} and {@code hashCode}.
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Hedged {

    /**
     * Alias for {@link #name()}.
     * @return the hedging instance's name
     */
    String value() default "";

    /**
     * The hedging instance's name, the key of its settings and meters; empty means
     * {@code SimpleClassName#method}.
     * @return the hedging instance's name
     */
    String name() default "";

    /**
     * How long an attempt runs unanswered before a hedge starts, such as {@code "50ms"};
     * empty means the configured default.
     * @return the delay
     */
    String delay() default "";

    /**
     * How many hedges an attempt may start besides its first try; 0 means the configured
     * default.
     * @return the most hedges per attempt
     */
    int maxHedges() default 0;

}
