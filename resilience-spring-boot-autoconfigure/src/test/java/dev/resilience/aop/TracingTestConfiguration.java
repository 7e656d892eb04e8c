package dev.resilience.aop;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.resilience.core.time.VirtualTimeSource;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleTracer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The tracing of the tracing tests: Micrometer Tracing's {@link SimpleTracer} behind the
 * observation registry, a virtual clock, and an executor named {@code tracing-executor}
 * for the asynchronous steps.
 */
@Configuration(proxyBeanMethods = false)
class TracingTestConfiguration {

    @Bean
    VirtualTimeSource virtualTimeSource() {
        return new VirtualTimeSource();
    }

    @Bean
    SimpleTracer tracer() {
        return new SimpleTracer();
    }

    @Bean
    ObservationRegistry observationRegistry(SimpleTracer tracer) {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
        return registry;
    }

    @Bean(destroyMethod = "shutdownNow")
    ExecutorService tracingExecutor() {
        return Executors.newSingleThreadExecutor((task) -> new Thread(task, "tracing-executor"));
    }

}
