package dev.resilience.sample;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * The application on a random port with short timings, shared by every test class (one
 * cached context): payment attempts back off 20ms and time out after 1s (as in
 * {@code application.yml}), gateway and oracle reads time out after 1s, and the breakers
 * wait 1s in OPEN.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "resilience.retry.instances.payment.delay=20ms",
                "resilience.circuit-breaker.instances.payment-gateway.wait-in-open=1s",
                "resilience.circuit-breaker.instances.price-oracle.wait-in-open=1s",
                "spring.http.clients.read-timeout=1s", "sample.simulator.seed=7", "sample.payment.lookup-wait=3s" })
@interface SampleApplicationTests {

}
