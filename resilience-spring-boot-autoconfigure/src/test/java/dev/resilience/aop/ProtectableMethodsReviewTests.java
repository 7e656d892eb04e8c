package dev.resilience.aop;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.RateLimited;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under {@code spring.aop.proxy-target-class=false} a bean that implements an interface
 * is wrapped in a JDK proxy of its interfaces, which can only ever intercept the methods
 * those interfaces declare. An annotation on another public method of the bean never
 * applies, as on a private or final method, so the start fails naming the method (DESIGN
 * section 11: the start fails when an annotated method cannot be intercepted) instead of
 * creating a bulkhead, its meters and its endpoint entry that no call ever passes.
 */
class ProtectableMethodsReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withPropertyValues("spring.aop.proxy-target-class=false");

    /** A bulkhead on a method outside the bean's interfaces fails the start. */
    @Test
    void annotationOnAMethodOutsideTheInterfacesOfAJdkProxiedBeanFailsTheStart() {
        this.contextRunner.withBean("warehouse", Warehouse.class, DefaultWarehouse::new)
            .run((context) -> assertThat(analysisOf(context))
                .contains("bean 'warehouse', method DefaultWarehouse#restock")
                .contains("@Bulkhead"));
    }

    private static String analysisOf(AssertableApplicationContext context) {
        assertThat(context).as("the start should have failed").hasFailed();
        return FailureAnalyses.describe(context.getStartupFailure());
    }

    interface Warehouse {

        String pick(String sku);

    }

    static class DefaultWarehouse implements Warehouse {

        @Override
        @RateLimited(name = "picking", limit = 5)
        public String pick(String sku) {
            return "picked " + sku;
        }

        @Bulkhead(name = "restocking", maxConcurrentCalls = 2)
        public String restock(String sku) {
            return "restocked " + sku;
        }

    }

}
