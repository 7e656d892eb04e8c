package dev.resilience.aop;

import java.lang.reflect.Method;

import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.util.ClassUtils;

/**
 * Matches the methods that carry a resilience annotation, on the method or on the class
 * that declares it, by the rules of {@link ResilienceAnnotations#find}; a JDK proxy is
 * matched through its interfaces ({@link TargetClasses}).
 */
final class ResiliencePointcut extends StaticMethodMatcherPointcut {

    @Override
    public boolean matches(Method method, Class<?> targetClass) {
        Class<?> userClass = ClassUtils.getUserClass(targetClass);
        return ResilienceAnnotations.find(TargetClasses.specificMethod(method, userClass)) != null;
    }

}
