package dev.resilience.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

import org.springframework.aop.support.AopUtils;
import org.springframework.util.ClassUtils;

/**
 * The class a bean's annotations are read from, the same for the pointcut, the startup
 * scan and the interceptor. It is the class of the object the Spring proxy calls, as the
 * auto-proxy creator matched it: the user class of a CGLIB subclass, or, for an object
 * that is itself a JDK dynamic proxy (an interface client built with
 * {@code Proxy.newProxyInstance} or a {@code ProxyFactory} without target, a Spring Data
 * repository, an OpenFeign client), its proxy class. A proxy class is read through the
 * interfaces it implements: its own methods are final, and calls only ever reach them
 * through those interfaces.
 */
final class TargetClasses {

    private TargetClasses() {
    }

    /**
     * Returns the target class of a bean as it stands in the context: the class of the
     * object beneath its outermost Spring AOP proxy, or its own class when it is not one.
     * @param singleton the bean, a Spring AOP proxy or not
     * @return the class of the object the proxy calls
     */
    static Class<?> ofBean(Object singleton) {
        return ClassUtils.getUserClass(AopUtils.getTargetClass(singleton));
    }

    /**
     * Returns the target class of the object a proxy calls.
     * @param target the object behind the Spring proxy
     * @return its user class
     */
    static Class<?> ofTarget(Object target) {
        return ClassUtils.getUserClass(target);
    }

    /**
     * Returns the classes a target class's annotated methods are found on at startup.
     * @param targetClass a target class
     * @return the interfaces of a JDK proxy class, or the class itself
     */
    static Class<?>[] annotatedClasses(Class<?> targetClass) {
        return Proxy.isProxyClass(targetClass) ? targetClass.getInterfaces() : new Class<?>[] { targetClass };
    }

    /**
     * Returns the class whose annotations apply to a method called on a target class, and
     * whose simple name makes its default instance names.
     * @param targetClass a target class
     * @param method the called method
     * @return for a JDK proxy class, the first of its interfaces that declares or
     * inherits the method; otherwise the target class
     */
    static Class<?> annotatedClass(Class<?> targetClass, Method method) {
        if (!Proxy.isProxyClass(targetClass)) {
            return targetClass;
        }
        for (Class<?> candidate : targetClass.getInterfaces()) {
            if (method.getDeclaringClass().isAssignableFrom(candidate)) {
                return candidate;
            }
        }
        return method.getDeclaringClass();
    }

    /**
     * Returns the method whose annotations apply to a call.
     * @param method the called method
     * @param targetClass a target class
     * @return the most specific method of the annotated class
     */
    static Method specificMethod(Method method, Class<?> targetClass) {
        return AopUtils.getMostSpecificMethod(method, annotatedClass(targetClass, method));
    }

}
