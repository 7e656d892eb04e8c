package dev.resilience.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Limits how many calls of the annotated method run at once. A call beyond the limit
 * waits up to {@link #maxWait()} for a permit, then is refused with
 * {@code BulkheadFullException}, which is never retried nor recorded by the breaker and
 * goes to the fallbacks. An asynchronous call holds its permit until its returned stage
 * completes. Every method that names the same bulkhead shares it.
 *
 * <p>
 * Settings left at their defaults here come from {@code resilience.bulkhead.defaults};
 * settings under {@code resilience.bulkhead.instances.<name>} override the annotation.
 * The adaptive type's limits and algorithm are set in YAML only. On a class, applies to
 * the public methods the class declares itself: not to inherited ones, nor to
 * {@code toString}, {@code equals} and {@code hashCode}.
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Bulkhead {

    /**
     * Alias for {@link #name()}.
     * @return the bulkhead name
     */
    String value() default "";

    /**
     * The bulkhead's name, the key of its settings and meters; empty means
     * {@code SimpleClassName#method}.
     * @return the bulkhead name
     */
    String name() default "";

    /**
     * The calls that may run at once (the initial limit of an adaptive bulkhead); 0 means
     * the configured default.
     * @return the maximum number of concurrent calls
     */
    int maxConcurrentCalls() default 0;

    /**
     * How long a call waits for a permit when all are taken, such as {@code "100ms"};
     * {@code "0"} refuses at once, at most one hour; empty means the configured default.
     * @return the longest wait
     */
    String maxWait() default "";

    /**
     * {@code fixed} or {@code adaptive} (a limit that follows the measured latency);
     * empty means the configured default.
     * @return the type
     */
    String type() default "";

}
