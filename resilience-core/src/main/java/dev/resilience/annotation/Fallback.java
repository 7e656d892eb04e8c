package dev.resilience.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the methods to try, in order, when the annotated method fails after its retries,
 * and whether the method's last good value is served before them.
 *
 * <p>
 * Fallback methods live on the same bean (any visibility), take the guarded method's
 * parameters, optionally followed by one {@code Throwable} parameter (that fallback then
 * applies only when the failure is an instance of its type), and return a type assignable
 * to the guarded method's return type.
 *
 * <p>
 * On a class, applies to the public methods the class declares itself, except the
 * fallback methods it names: not to inherited ones, nor to {@code toString},
 * {@code equals} and {@code hashCode}.
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Fallback {

    /**
     * The fallback methods' names, tried in order until one succeeds, after the last good
     * value when {@link #lastGood()} is set.
     * @return the fallback method names; none when only the last good value is served
     */
    String[] value() default {};

    /**
     * How long each value the method itself produces is kept (per caller, method and
     * arguments), to be served when a later call with the same arguments fails, before
     * the named fallbacks: a duration such as {@code "1h"} or {@code "PT10M"}. Empty
     * keeps nothing. An annotation with neither a name nor this fails the start.
     * @return the time to live of the last good value, or empty
     */
    String lastGood() default "";

    /**
     * The failures the chain applies to; empty means every failure not in
     * {@link #skipOn()}.
     * @return the exception types that trigger the fallbacks
     */
    Class<? extends Throwable>[] applyOn() default {};

    /**
     * The failures that are passed on without trying any fallback.
     * @return the exception types that skip the fallbacks
     */
    Class<? extends Throwable>[] skipOn() default {};

}
