package dev.resilience.aop;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import dev.resilience.template.ResilienceTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@ExtendWith(OutputCaptureExtension.class)
class ClassLevelAndTemplateTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withPropertyValues("resilience.retry.defaults.jitter=none");

    @Test
    void classLevelRetryableProtectsEveryPublicMethodUnderTheClassName() {
        this.contextRunner.withBean(Inventory.class).run((context) -> {
            Inventory inventory = context.getBean(Inventory.class);

            assertThat(inventory.reserve()).isEqualTo("reserved after 2");
            assertThat(inventory.release()).isEqualTo("released after 2");
            assertThatExceptionOfType(IOException.class).isThrownBy(inventory::notPublicEnough);
            assertThat(context.getBean(ResilienceRegistry.class).retryPolicies()).containsOnlyKeys("inventory");
        });
    }

    @Test
    void classLevelAnnotationLeavesObjectMethodsAndInheritedMethodsUnprotected() {
        this.contextRunner.withBean(Shelf.class).run((context) -> {
            Shelf shelf = context.getBean(Shelf.class);
            int toStringCalls = shelf.toStringCalls();

            assertThat(shelf.stock()).isEqualTo("stocked after 2");
            assertThatExceptionOfType(IllegalStateException.class).isThrownBy(shelf::toString);
            assertThat(shelf.toStringCalls()).isEqualTo(toStringCalls + 1);
            assertThatExceptionOfType(IOException.class).isThrownBy(shelf::audit);
            assertThat(shelf.auditCalls()).isEqualTo(1);
            assertThat(context.getBean(ResilienceRegistry.class).retryPolicies()).containsOnlyKeys("Shelf#stock");
        });
    }

    @Test
    void pointcutMatchesExactlyTheMethodsClassLevelAnnotationsProtect() throws NoSuchMethodException {
        ResiliencePointcut pointcut = new ResiliencePointcut();

        assertThat(pointcut.matches(Shelf.class.getMethod("stock"), Shelf.class)).isTrue();
        assertThat(pointcut.matches(Shelf.class.getMethod("toString"), Shelf.class)).isFalse();
        assertThat(pointcut.matches(Shelf.class.getMethod("equals", Object.class), Shelf.class)).isFalse();
        assertThat(pointcut.matches(Shelf.class.getMethod("hashCode"), Shelf.class)).isFalse();
        assertThat(pointcut.matches(Shelf.class.getMethod("audit"), Shelf.class)).isFalse();
    }

    @Test
    void templateRunsCodeThroughTheConfiguredInstanceByName() {
        this.contextRunner.withPropertyValues("resilience.retry.instances.quotes.max-attempts=4").run((context) -> {
            ResilienceTemplate template = context.getBean(ResilienceTemplate.class);
            AtomicInteger calls = new AtomicInteger();

            ExecutionResult<String> result = template.execute("quotes", () -> {
                if (calls.incrementAndGet() < 4) {
                    throw new IOException("quote service down");
                }
                return "quote";
            });

            assertThat(result.status()).isEqualTo(ExecutionStatus.SUCCESS);
            assertThat(result.attempts()).isEqualTo(4);
            assertThat(context.getBean(ResilienceRegistry.class).statistics("quotes").retries()).isEqualTo(3);
            assertThat(template.pipeline("quotes", null)).isSameAs(template.pipeline("quotes", null));
        });
    }

    @Test
    void templateSharesTheBreakerOfAName() {
        this.contextRunner.withPropertyValues("resilience.circuit-breaker.instances.quote-service.minimum-calls=2")
            .run((context) -> {
                ResilienceTemplate template = context.getBean(ResilienceTemplate.class);
                template.execute("quotes", "quote-service", () -> "one");

                assertThat(context.getBean(ResilienceRegistry.class)
                    .findCircuitBreaker("quote-service")
                    .orElseThrow()
                    .metrics()
                    .bufferedCalls()).isEqualTo(1);
            });
    }

    @Test
    void startupWarnsOfAMethodCarryingSpringFrameworksRetryable(CapturedOutput output) {
        this.contextRunner.withBean(SpringRetryableBean.class)
            .run((context) -> assertThat(output).contains("SpringRetryableBean#call carries "
                    + "org.springframework.resilience.annotation.Retryable, which this starter does not handle"));
    }

    @Retryable(value = "inventory", maxAttempts = 2, delay = "1ms")
    static class Inventory {

        private final AtomicInteger calls = new AtomicInteger();

        public String reserve() throws IOException {
            return flaky("reserved");
        }

        public String release() throws IOException {
            return flaky("released");
        }

        protected String notPublicEnough() throws IOException {
            throw new IOException("not retried");
        }

        private String flaky(String outcome) throws IOException {
            if (this.calls.incrementAndGet() % 2 == 1) {
                throw new IOException("flaky");
            }
            return outcome + " after 2";
        }

    }

    /**
     * A class whose public methods are inherited by an annotated subclass.
     */
    static class Warehouse {

        private final AtomicInteger auditCalls = new AtomicInteger();

        int auditCalls() {
            return this.auditCalls.get();
        }

        public String audit() throws IOException {
            this.auditCalls.incrementAndGet();
            throw new IOException("audit failed");
        }

    }

    @Retryable(maxAttempts = 2, delay = "1ms")
    static class Shelf extends Warehouse {

        private final AtomicInteger toStringCalls = new AtomicInteger();

        private final AtomicInteger stockCalls = new AtomicInteger();

        int toStringCalls() {
            return this.toStringCalls.get();
        }

        public String stock() throws IOException {
            if (this.stockCalls.incrementAndGet() == 1) {
                throw new IOException("flaky");
            }
            return "stocked after 2";
        }

        @Override
        public String toString() {
            this.toStringCalls.incrementAndGet();
            throw new IllegalStateException("no text for a shelf");
        }

        @Override
        public boolean equals(Object other) {
            return this == other;
        }

        @Override
        public int hashCode() {
            return 1;
        }

    }

    static class SpringRetryableBean {

        @org.springframework.resilience.annotation.Retryable
        public String call() {
            return "called";
        }

    }

}
