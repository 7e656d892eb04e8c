package dev.resilience.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method at most once per idempotency key: a repeated call with the
 * same key and arguments replays the stored result instead of running the method again.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Idempotent {

    /**
     * A SpEL expression over the method's parameters by name (and
     * {@code #p0}/{@code #a0}) that yields the idempotency key.
     * @return the key expression
     */
    String key();

    /**
     * The name under which keys are stored and measured; empty means
     * {@code SimpleClassName#method}.
     * @return the name
     */
    String name() default "";

    /**
     * How long a completed result is replayed; empty means
     * {@code resilience.idempotency.ttl}.
     * @return the time to live
     */
    String ttl() default "";

    /**
     * A SpEL expression whose value must match between calls with the same key; empty
     * means all the arguments.
     * @return the fingerprint expression
     */
    String fingerprint() default "";

    /**
     * What a call does while another call with the same key is running.
     * @return the in-progress behaviour
     */
    OnInProgress onInProgress() default OnInProgress.REJECT;

}
