package dev.resilience.aop;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Beans the auto-proxy creator wraps in a JDK dynamic proxy: beans that already are JDK
 * proxies (Spring's HTTP interface clients, Spring Data repositories, OpenFeign clients) and,
 * under {@code spring.aop.proxy-target-class=false}, every bean that implements an interface.
 * The startup scan reads the bean's type from the singleton, which is then the proxy class
 * {@code $ProxyN}: its methods are all final, and the interface's annotations are found on them.
 */
class JdkProxiedBeansTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class)
        .withPropertyValues("resilience.retry.defaults.jitter=none", "resilience.retry.defaults.budget.enabled=false");

    /**
     * A client interface implemented by a JDK proxy, as {@code HttpServiceProxyFactory},
     * Spring Data or OpenFeign create them: the annotation can only be on the interface.
     * The auto-proxy creator can wrap such a bean (it does, with a JDK proxy of its
     * interfaces), so the start must not fail, and the call must be retried.
     */
    @Test
    void annotatedMethodOfAnInterfaceImplementedByAJdkProxyIsProtectedAndDoesNotFailTheStart() {
        AtomicInteger calls = new AtomicInteger();
        this.contextRunner.withBean("quoteClient", QuoteClient.class, () -> quoteClient(calls)).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(QuoteClient.class).quote("ETH")).isEqualTo("quote of ETH");
            assertThat(calls).hasValue(2);
        });
    }

    /**
     * Under {@code spring.aop.proxy-target-class=false} (or wherever Boot's AOP auto-config is
     * off, as the starter's own auto-proxy registrar then defaults to interface proxies) a
     * fallback that does not exist must still fail the start, as DESIGN section 4 says:
     * "Nothing of this is left to the first call in production".
     */
    @Test
    void missingFallbackOnAnInterfaceProxiedBeanFailsTheStart() {
        this.contextRunner.withPropertyValues("spring.aop.proxy-target-class=false")
            .withBean("orders", BrokenOrders.class)
            .run((context) -> assertThat(context).hasFailed());
    }

    /**
     * Every instance exists from the start (DESIGN section 4), JDK-proxied beans included.
     */
    @Test
    void retryInstanceOfAnInterfaceProxiedBeanExistsFromTheStart() {
        this.contextRunner.withPropertyValues("spring.aop.proxy-target-class=false")
            .withBean("orders", PlainOrders.class)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(Proxy.isProxyClass(context.getBean("orders").getClass())).as("a JDK proxy").isTrue();
                assertThat(context.getBean(ResilienceRegistry.class).retryPolicies()).containsKey("orders-retry");
            });
    }

    private static QuoteClient quoteClient(AtomicInteger calls) {
        return (QuoteClient) Proxy.newProxyInstance(QuoteClient.class.getClassLoader(),
                new Class<?>[] { QuoteClient.class }, (proxy, method, arguments) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return switch (method.getName()) {
                            case "equals" -> proxy == arguments[0];
                            case "hashCode" -> System.identityHashCode(proxy);
                            default -> "QuoteClient proxy";
                        };
                    }
                    if (calls.incrementAndGet() == 1) {
                        throw new IOException("connection reset");
                    }
                    return "quote of " + arguments[0];
                });
    }

    interface QuoteClient {

        @Retryable(value = "quote-client", maxAttempts = 3, delay = "10ms")
        String quote(String symbol) throws IOException;
    }

    interface Orders {

        String place(String order);
    }

    static class BrokenOrders implements Orders {

        @Override
        @Fallback("noSuchMethod")
        public String place(String order) {
            return order;
        }
    }

    static class PlainOrders implements Orders {

        @Override
        @Retryable("orders-retry")
        public String place(String order) {
            return order;
        }
    }
}
