package dev.resilience.aop;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import dev.resilience.chaos.ChaosInstances;
import dev.resilience.core.lastgood.InMemoryLastGoodStore;
import dev.resilience.core.lastgood.LastGoodStore;
import dev.resilience.core.time.TimeSource;
import dev.resilience.registry.ResiliencePolicies;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.log.LogMessage;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Every annotated method of the application, compiled once. When the context has created
 * its singletons, every bean's target class is scanned (the class a Spring proxy wraps,
 * the interfaces of a JDK proxy: see {@link TargetClasses}) and each annotated method
 * compiled, so that a bad annotation, or one on a method the proxy cannot intercept,
 * fails the start and every instance exists before the first call; a method first seen
 * through a call (a bean created later) is compiled then. Looking a method up per call is
 * two map reads, without allocation. Thread-safe.
 */
public final class ResilientMethods implements SmartInitializingSingleton, BeanFactoryAware {

    private static final org.apache.commons.logging.Log logger = org.apache.commons.logging.LogFactory
        .getLog(ResilientMethods.class);

    private static final String[] FOREIGN_RETRYABLES = { "org.springframework.resilience.annotation.Retryable",
            "org.springframework.retry.annotation.Retryable" };

    private final ResiliencePolicies policies;

    private final ResilientMethodCompiler compiler;

    private final Map<Method, Entry> entries = new ConcurrentHashMap<>();

    private final Map<String, CopyOnWriteArrayList<Declared>> declared = new ConcurrentHashMap<>();

    private @Nullable ConfigurableListableBeanFactory beanFactory;

    /**
     * Creates the compiled methods of an application whose idempotency keys have no scope
     * and whose fingerprints are keyed by a random secret of this instance.
     * @param policies where the methods' policies come from
     * @param observer how calls are observed
     */
    public ResilientMethods(ResiliencePolicies policies, CallObserver observer) {
        this(policies, observer, IdempotencyScopeResolver.NONE, IdempotencyFingerprints.withRandomSecret());
    }

    /**
     * Creates the compiled methods of an application.
     * @param policies where the methods' policies come from
     * @param observer how calls are observed
     * @param scopes whose idempotency key each call carries
     * @param fingerprints how the fingerprints of idempotent calls are made
     */
    public ResilientMethods(ResiliencePolicies policies, CallObserver observer, IdempotencyScopeResolver scopes,
            IdempotencyFingerprints fingerprints) {
        this(policies, observer, scopes, fingerprints, null);
    }

    /**
     * Creates the compiled methods of an application, with faults injected into their
     * attempts.
     * @param policies where the methods' policies come from
     * @param observer how calls are observed
     * @param scopes whose idempotency key each call carries
     * @param fingerprints how the fingerprints of idempotent calls are made
     * @param chaos the faults of each method's pipeline, by its name, or {@code null}
     * when chaos is off
     */
    public ResilientMethods(ResiliencePolicies policies, CallObserver observer, IdempotencyScopeResolver scopes,
            IdempotencyFingerprints fingerprints, @Nullable ChaosInstances chaos) {
        this(policies, observer, scopes, fingerprints, chaos, new DefaultLastGoodStore());
    }

    /**
     * Creates the compiled methods of an application, with faults injected into their
     * attempts and the last good values of {@code @Fallback(lastGood)} kept in a store.
     * @param policies where the methods' policies come from
     * @param observer how calls are observed
     * @param scopes whose idempotency key each call carries, and whose last good values
     * @param fingerprints how the fingerprints of idempotent calls and the keys of last
     * good values are made
     * @param chaos the faults of each method's pipeline, by its name, or {@code null}
     * when chaos is off
     * @param lastGoodStore supplies the store of last good values, when a method first
     * needs it
     */
    public ResilientMethods(ResiliencePolicies policies, CallObserver observer, IdempotencyScopeResolver scopes,
            IdempotencyFingerprints fingerprints, @Nullable ChaosInstances chaos,
            Supplier<LastGoodStore> lastGoodStore) {
        this.policies = policies;
        this.compiler = new ResilientMethodCompiler(policies, observer, scopes, fingerprints, chaos, lastGoodStore);
    }

    /**
     * Adds what changes the context of every call to an annotated method before it enters
     * its pipeline, after the customizers added before; it applies to the calls that
     * start afterwards.
     * @param customizer the customizer, {@link CallContextCustomizer#NONE} for none
     */
    public void customizeCalls(CallContextCustomizer customizer) {
        this.compiler.customizeCalls(customizer);
    }

    /**
     * Sets whose idempotency keys and last good values the calls of methods returning
     * {@code Mono} carry, read from each subscriber's Reactor context, for the methods
     * compiled afterwards. Without it they are read as
     * {@link ReactiveIdempotencyScopeResolver} says.
     * @param scopes the application's resolver
     */
    public void scopeSubscribers(ReactiveIdempotencyScopeResolver scopes) {
        this.compiler.scopeSubscribers(scopes);
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        if (beanFactory instanceof ConfigurableListableBeanFactory listable) {
            this.beanFactory = listable;
            this.compiler.loadFrom(listable.getBeanClassLoader());
        }
        this.compiler.referTo(beanFactory);
    }

    @Override
    public void afterSingletonsInstantiated() {
        ConfigurableListableBeanFactory factory = this.beanFactory;
        String[] beanNames = (factory != null) ? factory.getBeanDefinitionNames() : new String[0];
        for (String beanName : beanNames) {
            Class<?> targetClass = targetClass(factory, beanName);
            if (targetClass != null) {
                compileAll(beanName, targetClass, proxiedInterfaces(factory.getSingleton(beanName)));
            }
        }
        this.policies.registry().createConfiguredInstances();
        this.compiler.started();
    }

    /**
     * Returns the compiled form of a method called on an object of a class.
     * @param method the called method, as the proxy saw it
     * @param targetClass the class of the object the proxy calls, by
     * {@link TargetClasses#ofTarget}
     * @return the compiled method, or {@code null} when the method carries no annotation
     */
    @Nullable ResilientMethod get(Method method, Class<?> targetClass) {
        Entry known = find(this.entries.get(method), targetClass);
        return (known != null) ? known.method
                : add(method, targetClass, compile(method, targetClass, targetClass.getName()));
    }

    /**
     * The target class of a bean: read from the singleton when it exists, so that a bean
     * the auto-proxy creator wrapped is scanned as the class it wrapped, never the
     * proxy's; from the bean definition otherwise (a lazy bean, or a
     * {@code FactoryBean}'s object), without creating anything.
     */
    private static @Nullable Class<?> targetClass(ConfigurableListableBeanFactory factory, String beanName) {
        Object singleton = factory.getSingleton(beanName);
        if (singleton != null && !(singleton instanceof FactoryBean<?>)) {
            return TargetClasses.ofBean(singleton);
        }
        Class<?> type = factory.getType(beanName, false);
        return (type != null) ? ClassUtils.getUserClass(type) : null;
    }

    /**
     * The interfaces of a bean that is a JDK dynamic proxy of Spring AOP, the only ones
     * whose methods its calls can reach; {@code null} for any other bean.
     */
    private static Class<?> @Nullable [] proxiedInterfaces(@Nullable Object singleton) {
        return (singleton != null && AopUtils.isJdkDynamicProxy(singleton))
                ? AopProxyUtils.proxiedUserInterfaces(singleton) : null;
    }

    private void compileAll(String beanName, Class<?> targetClass, Class<?> @Nullable [] proxiedInterfaces) {
        for (Class<?> annotatedClass : TargetClasses.annotatedClasses(targetClass)) {
            ReflectionUtils.doWithMethods(annotatedClass, (method) -> {
                warnOfForeignRetryable(beanName, method);
                String subject = ResilientMethodCompiler.subject(beanName, annotatedClass, method);
                ProtectableMethods.requireInterceptable(method, subject);
                ProtectableMethods.requireReachable(method, proxiedInterfaces, subject);
                ResilienceAnnotations annotations = ResilienceAnnotations.find(method);
                if (annotations != null && find(this.entries.get(method), targetClass) == null) {
                    add(method, targetClass, this.compiler.compile(method, annotatedClass, annotations, beanName));
                }
                if (annotations != null) {
                    this.declared
                        .computeIfAbsent(InstanceNames.defaultName(annotatedClass, method),
                                (key) -> new CopyOnWriteArrayList<>())
                        .addIfAbsent(new Declared(beanName, method));
                }
            }, (method) -> ReflectionUtils.USER_DECLARED_METHODS.matches(method)
                    && AopUtils.getMostSpecificMethod(method, annotatedClass) == method);
        }
    }

    private @Nullable ResilientMethod compile(Method method, Class<?> targetClass, String beanName) {
        Class<?> annotatedClass = TargetClasses.annotatedClass(targetClass, method);
        Method specific = AopUtils.getMostSpecificMethod(method, annotatedClass);
        Entry known = (specific != method) ? find(this.entries.get(specific), targetClass) : null;
        if (known != null) {
            return known.method;
        }
        ResilienceAnnotations annotations = ResilienceAnnotations.find(specific);
        return (annotations != null) ? this.compiler.compile(specific, annotatedClass, annotations, beanName) : null;
    }

    /**
     * Returns the annotated methods of the application's beans that a dead letter names
     * as its {@code method}, {@code SimpleClassName#method}: usually one, several for
     * overloads or for one class declared as several beans.
     * @param description the method as a dead letter names it
     * @return the methods and their beans, empty when none is named so
     */
    public List<Declared> declared(String description) {
        List<Declared> found = this.declared.get(description);
        return (found != null) ? List.copyOf(found) : List.of();
    }

    private static @Nullable Entry find(@Nullable Entry head, Class<?> targetClass) {
        for (Entry entry = head; entry != null; entry = entry.next) {
            if (entry.targetClass == targetClass) {
                return entry;
            }
        }
        return null;
    }

    private @Nullable ResilientMethod add(Method method, Class<?> targetClass, @Nullable ResilientMethod compiled) {
        Entry head = this.entries.compute(method, (key, current) -> (find(current, targetClass) != null) ? current
                : new Entry(targetClass, compiled, current));
        return find(head, targetClass).method;
    }

    private static void warnOfForeignRetryable(String beanName, Method method) {
        for (Annotation annotation : method.getDeclaredAnnotations()) {
            String type = annotation.annotationType().getName();
            for (String foreign : FOREIGN_RETRYABLES) {
                if (foreign.equals(type)) {
                    logger.warn(LogMessage.format(
                            "Bean '%s' method %s#%s carries %s, which this starter does not handle; "
                                    + "use dev.resilience.annotation.Retryable to retry it with the starter's policies",
                            beanName, method.getDeclaringClass().getSimpleName(), method.getName(), type));
                }
            }
        }
    }

    /**
     * An annotated method of a bean, called through the bean's proxy.
     *
     * @param beanName the bean's name
     * @param method the annotated method
     */
    public record Declared(String beanName, Method method) {
    }

    private record Entry(Class<?> targetClass, @Nullable ResilientMethod method, @Nullable Entry next) {
    }

    /**
     * The memory store of an application that supplies none, made when first needed.
     */
    private static final class DefaultLastGoodStore implements Supplier<LastGoodStore> {

        private final AtomicReference<@Nullable LastGoodStore> store = new AtomicReference<>();

        @Override
        public LastGoodStore get() {
            LastGoodStore existing = this.store.get();
            if (existing != null) {
                return existing;
            }
            this.store.compareAndSet(null,
                    new InMemoryLastGoodStore(InMemoryLastGoodStore.DEFAULT_MAX_ENTRIES, TimeSource.system()));
            return this.store.get();
        }

    }

}
