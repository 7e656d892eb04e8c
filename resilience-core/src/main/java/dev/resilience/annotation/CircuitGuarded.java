package dev.resilience.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Guards the annotated method with a circuit breaker. Every method that names the same
 * breaker shares it. Settings come from {@code resilience.circuit-breaker}. On a class,
 * applies to the public methods the class declares itself: not to inherited ones, nor to
 * {@code toString}, {@code equals} and {@code hashCode}.
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface CircuitGuarded {

    /**
     * Alias for {@link #name()}.
     * @return the breaker name
     */
    String value() default "";

    /**
     * The breaker's name; empty means {@code SimpleClassName#method}.
     * @return the breaker name
     */
    String name() default "";

    /**
     * The exceptions recorded as failures; empty means every exception not in
     * {@link #ignoreOn()}. Others count as successes.
     * @return the recorded exception types
     */
    Class<? extends Throwable>[] recordOn() default {};

    /**
     * The exceptions that are neither failures nor successes.
     * @return the ignored exception types
     */
    Class<? extends Throwable>[] ignoreOn() default {};

    /**
     * A SpEL expression over {@code #result}, the value an attempt returned (an
     * asynchronous method's stage value, a {@code Flux}'s first element or {@code null}
     * when it completes empty), and the method's parameters by name; when it is
     * {@code true} the breaker records the attempt as a failure while the call still
     * returns its value, such as {@code "#result.status() == 'PENDING'"}; such a value is
     * never kept as the last good value of {@code @Fallback(lastGood)}. An expression
     * that throws or yields no boolean ends the call ERROR with a
     * {@code ResultPredicateException}. Every annotation that names the breaker must
     * write the same expression. Parsed at startup; empty means no value is a failure.
     * @return the failure predicate
     */
    String failOnResult() default "";

}
