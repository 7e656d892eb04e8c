package dev.resilience.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Limits how long each run of the annotated method may take, without retrying it: a
 * synchronous method that overruns {@link #timeout()} has its thread interrupted, an
 * asynchronous one has its stage cancelled, and the call ends with status TIMEOUT and an
 * {@code AttemptTimeoutException} (the engine's attempt timeout, as
 * {@code @Retryable(attemptTimeout)} gives), which goes to the fallbacks. A late value is
 * discarded. Without {@code @Retryable} such a call is not a dead letter.
 *
 * <p>
 * With {@code @Retryable} too, the time limit bounds every attempt, and when the retry
 * instance has an {@code attemptTimeout} of its own the shorter of the two applies: both
 * are upper bounds the application asked for, and the retry's may come from
 * {@code resilience.retry.defaults}, which a method must be able to tighten.
 *
 * <p>
 * Settings left at their defaults here come from
 * {@code resilience.time-limiter.defaults}; settings under
 * {@code resilience.time-limiter.instances.<name>} override the annotation. Durations use
 * Spring's format ({@code "200ms"}, {@code "2s"}). On a class, applies to the public
 * methods the class declares itself: not to inherited ones, nor to {@code toString},
 * {@code equals} and {@code hashCode}.
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface TimeLimited {

    /**
     * Alias for {@link #name()}.
     * @return the time limiter name
     */
    String value() default "";

    /**
     * The time limiter's name, the key of its settings; empty means
     * {@code SimpleClassName#method}.
     * @return the time limiter name
     */
    String name() default "";

    /**
     * How long a run may take, such as {@code "2s"}; empty means the configured default
     * (5s unless {@code resilience.time-limiter.defaults.timeout} says otherwise).
     * @return the time limit
     */
    String timeout() default "";

}
