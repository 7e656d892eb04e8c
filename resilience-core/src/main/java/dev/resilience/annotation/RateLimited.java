package dev.resilience.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Limits the rate of calls of the annotated method: at most {@link #limit()} per
 * {@link #period()}. A call beyond the rate waits up to {@link #timeout()} for a permit,
 * then is refused with {@code RateLimitedException}, which carries the wait needed, is
 * never retried nor recorded by the breaker, and goes to the fallbacks (an HTTP 429 with
 * {@code Retry-After} when it escapes a Spring MVC controller). Every attempt takes a
 * permit. Every method that names the same rate limiter shares it, and with
 * {@link #store()} {@code redis} every instance of the application shares it.
 *
 * <p>
 * Settings left at their defaults here come from
 * {@code resilience.rate-limiter.defaults}; settings under
 * {@code resilience.rate-limiter.instances.<name>} override the annotation. Durations use
 * Spring's format ({@code "200ms"}, {@code "1s"}). On a class, applies to the public
 * methods the class declares itself: not to inherited ones, nor to {@code toString},
 * {@code equals} and {@code hashCode}.
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RateLimited {

    /**
     * Alias for {@link #name()}.
     * @return the rate limiter name
     */
    String value() default "";

    /**
     * The rate limiter's name, the key of its settings and meters; empty means
     * {@code SimpleClassName#method}.
     * @return the rate limiter name
     */
    String name() default "";

    /**
     * The calls admitted per period; 0 means the configured default.
     * @return the limit
     */
    int limit() default 0;

    /**
     * The period the limit applies to, such as {@code "1s"}; empty means the configured
     * default.
     * @return the period
     */
    String period() default "";

    /**
     * How long a call waits for a permit, such as {@code "500ms"}; {@code "0"} refuses at
     * once; empty means the configured default.
     * @return the longest wait
     */
    String timeout() default "";

    /**
     * Where the limiter keeps its permits: {@code memory} (each instance of the
     * application limits on its own) or {@code redis} (one limit shared by every
     * instance, through the Spring layer's Redis store); empty means the configured
     * default.
     * @return the store
     */
    String store() default "";

}
