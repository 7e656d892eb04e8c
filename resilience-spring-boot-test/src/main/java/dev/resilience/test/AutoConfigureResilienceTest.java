package dev.resilience.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;

/**
 * Put on a {@code @SpringBootTest} class (or any test with a Spring application context)
 * so that every test method starts from the state the application had when it started,
 * and the engine runs on a virtual clock the test moves:
 *
 * <ul>
 * <li>before each test method, {@link ResilienceReset} puts every circuit breaker back to
 * CLOSED with an empty window (forced states cleared), empties and refills every retry
 * budget, gives every rate limiter its burst back, starts every adaptive bulkhead's limit
 * afresh, puts chaos faults changed at run time back to their configured settings, and
 * empties the in-memory idempotency, dead-letter and last-good stores;
 * <li>the application's {@code TimeSource} is a
 * {@link dev.resilience.core.time.VirtualTimeSource}, and a {@link ResilienceClock} bean
 * advances it: a retry's backoff passes without waiting, and a breaker's wait in open is
 * one {@link ResilienceClock#advance(java.time.Duration)}.
 * </ul>
 *
 * <p>
 * An {@code @AutoConfigure...} annotation, as Spring Boot's {@code @AutoConfigureMockMvc}
 * is, rather than a test annotation of its own: it adds to the context that
 * {@code @SpringBootTest} (or a test slice) builds and starts none of its own, so it
 * composes with every other test annotation. Test classes with it share one cached
 * context, apart from those without it. The reset before each test needs JUnit Jupiter
 * (it is {@link ResilienceResetExtension}); the virtual clock does not.
 *
 * @see ResilienceResetExtension
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@PropertyMapping("resilience-test")
@ExtendWith(ResilienceResetExtension.class)
public @interface AutoConfigureResilienceTest {

    /**
     * Whether the engine runs on a virtual clock ({@code resilience-test.virtual-time}).
     * With {@code false}, the application keeps its own time source, the wall clock by
     * default, and no {@link ResilienceClock} is defined; the resets still happen.
     * @return {@code true} for the virtual clock
     */
    boolean virtualTime() default true;

}
