package dev.resilience.aop;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Beans the auto-proxy creator wraps in a JDK dynamic proxy: beans that already are JDK
 * proxies (Spring's HTTP interface clients, Spring Data repositories, OpenFeign clients)
 * and, under {@code spring.aop.proxy-target-class=false}, every bean that implements an
 * interface. The singleton is then a proxy class {@code $ProxyN}, whose methods are all
 * final: the startup checks read the class the proxy wraps, or the interfaces of a bean
 * that is itself a JDK proxy, as the pointcut and the interceptor do.
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
     * Under {@code spring.aop.proxy-target-class=false} (or wherever Boot's AOP
     * auto-config is off, as the starter's own auto-proxy registrar then defaults to
     * interface proxies) a fallback that does not exist must still fail the start, as
     * DESIGN section 4 says: "Nothing of this is left to the first call in production".
     */
    @Test
    void missingFallbackOnAnInterfaceProxiedBeanFailsTheStart() {
        this.contextRunner.withPropertyValues("spring.aop.proxy-target-class=false")
            .withBean("orders", BrokenOrders.class)
            .run((context) -> assertThat(context).hasFailed());
    }

    /**
     * Every instance exists from the start (DESIGN section 4), JDK-proxied beans
     * included.
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

    /**
     * Spring's HTTP interface clients are JDK proxies that {@code ProxyFactory} builds
     * without a target. The instance of a name left empty goes by the interface, as a
     * class's goes by the class, never by the proxy class, and the call runs the instance
     * the start created.
     */
    @Test
    void interfaceClientBuiltByProxyFactoryGoesByItsInterfaceFromTheStart() {
        AtomicInteger calls = new AtomicInteger();
        this.contextRunner.withBean("priceClient", PriceClient.class, () -> priceClient(calls)).run((context) -> {
            assertThat(context).hasNotFailed();
            ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
            assertThat(registry.retryPolicies()).containsKey("PriceClient#price");
            Set<String> atStart = registry.statistics().keySet();

            assertThat(context.getBean(PriceClient.class).price("ETH")).isEqualTo("price of ETH");

            assertThat(calls).hasValue(2);
            assertThat(registry.statistics()).containsOnlyKeys(atStart);
            assertThat(registry.statistics().get("PriceClient#price").calls(ExecutionStatus.SUCCESS)).isOne();
        });
    }

    /**
     * Under {@code spring.aop.proxy-target-class=false}, a final method that carries an
     * annotation on a bean the proxy wraps by its interfaces fails the start, as it does
     * on a bean wrapped by a subclass.
     */
    @Test
    void annotatedFinalMethodOfAnInterfaceProxiedBeanFailsTheStart() {
        this.contextRunner.withPropertyValues("spring.aop.proxy-target-class=false")
            .withBean("orders", FinalOrders.class)
            .run((context) -> assertThat(describe(context.getStartupFailure())).contains("method FinalOrders#cancel:")
                .contains("the Spring proxy cannot intercept a final method"));
    }

    /**
     * Under {@code spring.aop.proxy-target-class=false}, a class-level annotation applies
     * to the methods of the bean's interfaces and does not fail the start for a public
     * method of the class that no interface declares, which no call through the proxy
     * reaches: only a method that carries an annotation itself does.
     */
    @Test
    void classLevelAnnotationOfAnInterfaceProxiedBeanWithAPublicMethodOfItsOwnStarts() {
        this.contextRunner.withPropertyValues("spring.aop.proxy-target-class=false")
            .withBean("orders", ClassLevelOrders.class)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(Orders.class).place("book")).isEqualTo("book");
                assertThat(context.getBean(ResilienceRegistry.class)
                    .statistics()
                    .get("orders-retry")
                    .calls(ExecutionStatus.SUCCESS)).isOne();
            });
    }

    /**
     * A call through the interface proxy runs the instance the start created for the
     * method.
     */
    @Test
    void callOfAnInterfaceProxiedBeanRunsTheInstanceOfTheStart() {
        this.contextRunner.withPropertyValues("spring.aop.proxy-target-class=false")
            .withBean("orders", PlainOrders.class)
            .run((context) -> {
                ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
                Set<String> atStart = registry.statistics().keySet();

                assertThat(context.getBean(Orders.class).place("book")).isEqualTo("book");

                assertThat(registry.statistics()).containsOnlyKeys(atStart);
                assertThat(registry.statistics().get("orders-retry").calls(ExecutionStatus.SUCCESS)).isOne();
            });
    }

    /**
     * A Spring Data repository is the object of a {@code FactoryBean}: a Spring AOP proxy
     * of the repository interface around a class that implements only part of it, which
     * an advice of the proxy calls. The annotation the interface puts on a method it
     * redeclares applies, and the instance of a name left empty goes by the interface,
     * from the start, as the pointcut found the method there: never by the class behind
     * the repository's proxy.
     */
    @Test
    void repositoryInterfaceMethodGoesByTheInterfaceFromTheStart() {
        AtomicInteger calls = new AtomicInteger();
        this.contextRunner.withBean("customers", CustomersFactoryBean.class, () -> new CustomersFactoryBean(calls))
            .run((context) -> {
                ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
                assertThat(registry.retryPolicies()).containsKey("Customers#find");
                Set<String> atStart = registry.statistics().keySet();

                assertThat(context.getBean(Customers.class).find("42")).isEqualTo("customer 42");

                assertThat(calls).hasValue(2);
                assertThat(registry.statistics()).containsOnlyKeys(atStart);
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

    private static PriceClient priceClient(AtomicInteger calls) {
        MethodInterceptor exchange = (invocation) -> {
            if (calls.incrementAndGet() == 1) {
                throw new IOException("connection reset");
            }
            return "price of " + invocation.getArguments()[0];
        };
        return (PriceClient) new ProxyFactory(PriceClient.class, exchange).getProxy(PriceClient.class.getClassLoader());
    }

    private static String describe(Throwable failure) {
        assertThat(failure).as("start failure").isNotNull();
        return FailureAnalyses.describe(failure);
    }

    interface QuoteClient {

        @Retryable(value = "quote-client", maxAttempts = 3, delay = "10ms")
        String quote(String symbol) throws IOException;

    }

    interface Orders {

        String place(String order);

    }

    interface PriceClient {

        @Retryable(maxAttempts = 3, delay = "10ms")
        String price(String symbol) throws IOException;

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

    @Retryable("orders-retry")
    static class ClassLevelOrders implements Orders {

        @Override
        public String place(String order) {
            return order;
        }

        public String audit(String order) {
            return order;
        }

    }

    static class FinalOrders implements Orders {

        @Override
        @Retryable("orders-retry")
        public String place(String order) {
            return order;
        }

        @Retryable("orders-retry")
        public final String cancel(String order) {
            return order;
        }

    }

    interface Crud {

        String find(String id) throws IOException;

    }

    interface Customers extends Crud {

        @Override
        @Retryable(maxAttempts = 3, delay = "10ms")
        String find(String id) throws IOException;

    }

    static class FlakyCrud implements Crud {

        private final AtomicInteger calls;

        FlakyCrud(AtomicInteger calls) {
            this.calls = calls;
        }

        @Override
        public String find(String id) throws IOException {
            if (this.calls.incrementAndGet() == 1) {
                throw new IOException("connection reset");
            }
            return "customer " + id;
        }

    }

    static class CustomersFactoryBean implements FactoryBean<Customers> {

        private final AtomicInteger calls;

        CustomersFactoryBean(AtomicInteger calls) {
            this.calls = calls;
        }

        @Override
        public Customers getObject() {
            ProxyFactory factory = new ProxyFactory(new FlakyCrud(this.calls));
            factory.setInterfaces(Customers.class);
            factory.addAdvice((MethodInterceptor) (invocation) -> AopUtils.invokeJoinpointUsingReflection(
                    invocation.getThis(),
                    Crud.class.getMethod(invocation.getMethod().getName(), invocation.getMethod().getParameterTypes()),
                    invocation.getArguments()));
            return (Customers) factory.getProxy(Customers.class.getClassLoader());
        }

        @Override
        public Class<?> getObjectType() {
            return Customers.class;
        }

    }

}
