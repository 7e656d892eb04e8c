package dev.resilience.sample;

import org.junit.jupiter.api.Test;

import org.springframework.aot.AotDetector;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.task.SimpleAsyncTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application {@code process-aot} built in the {@code java-25} run, started from its
 * generated initializer, has Spring Boot's virtual-thread task executor: the run builds
 * it with {@code spring.threads.virtual.enabled=true}, which
 * {@code @ConditionalOnThreading} reads at build time.
 */
class SampleOrderServiceVirtualThreadsAotTests {

    @Test
    void applicationStartedFromTheGeneratedInitializerRunsTasksOnVirtualThreads() throws Exception {
        assertThat(AotDetector.useGeneratedArtifacts()).as("spring.aot.enabled").isTrue();
        SpringApplication application = new SpringApplication(SampleOrderServiceApplication.class);
        application.setMainApplicationClass(SampleOrderServiceApplication.class);
        // a database of its own: the sample's outlives its application
        // (DB_CLOSE_DELAY=-1) in this JVM
        try (ConfigurableApplicationContext context = application.run("--server.port=0", "--spring.jmx.enabled=false",
                "--spring.datasource.url=jdbc:h2:mem:virtual-threads-aot")) {
            SimpleAsyncTaskExecutor executor = context.getBean("applicationTaskExecutor",
                    SimpleAsyncTaskExecutor.class);
            assertThat(executor.submit(() -> Thread.currentThread().isVirtual()).get()).isTrue();
        }
    }

}
