package dev.resilience.aop;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.List;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * Which arguments of a method its default fingerprint covers, decided once from the
 * parameter types. The parameters a web framework injects for the request (servlet
 * request, response and session, WebFlux's {@code ServerWebExchange}, its request,
 * response and {@code WebSession}, {@code WebRequest}, {@code BindingResult} and
 * {@code Errors}, {@code Model}, {@code SessionStatus}, {@code UriComponentsBuilder},
 * {@code Locale}, {@code TimeZone}, {@code ZoneId}) are left out: they differ between two
 * sends of one request; so is a Kotlin {@code suspend} function's {@code Continuation},
 * which differs between any two calls. A {@link Principal} contributes its name alone, so
 * that the same caller's retry matches whatever its login details, and another caller
 * reusing the key does not. The framework types are known by name, so that neither the
 * Servlet API nor Spring MVC nor WebFlux is needed.
 */
final class FingerprintParameters {

    private static final List<String> REQUEST_TYPES = List.of("jakarta.servlet.ServletRequest",
            "jakarta.servlet.ServletResponse", "jakarta.servlet.http.HttpSession",
            "org.springframework.web.context.request.WebRequest", "org.springframework.validation.Errors",
            "org.springframework.ui.Model", "org.springframework.ui.ModelMap",
            "org.springframework.web.bind.support.SessionStatus", "org.springframework.web.util.UriComponentsBuilder",
            "org.springframework.web.server.ServerWebExchange",
            "org.springframework.http.server.reactive.ServerHttpRequest",
            "org.springframework.http.server.reactive.ServerHttpResponse", "org.springframework.web.server.WebSession",
            "kotlin.coroutines.Continuation");

    private static final List<String> FRAMEWORK_TYPES = Stream
        .concat(REQUEST_TYPES.stream(), Stream.of("java.util.Locale", "java.util.TimeZone", "java.time.ZoneId"))
        .toList();

    private final boolean[] leftOut;

    private final boolean[] principals;

    private FingerprintParameters(boolean[] leftOut, boolean[] principals) {
        this.leftOut = leftOut;
        this.principals = principals;
    }

    /**
     * Decides which parameters of a method the default fingerprint covers.
     * @param method the idempotent method
     * @return its fingerprint parameters
     */
    static FingerprintParameters of(Method method) {
        return of(method, FRAMEWORK_TYPES);
    }

    /**
     * Decides which parameters of a method the key of its results covers: every one but
     * the request, response and session objects, so that a {@code Locale} or a
     * {@code ZoneId}, which change a result, tell results apart.
     * @param method the method whose results are kept
     * @return its parameters for result keys
     */
    static FingerprintParameters ofResults(Method method) {
        return of(method, REQUEST_TYPES);
    }

    private static FingerprintParameters of(Method method, List<String> leftOutTypes) {
        Class<?>[] types = method.getParameterTypes();
        boolean[] leftOut = new boolean[types.length];
        boolean[] principals = new boolean[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> type = types[i];
            principals[i] = Principal.class.isAssignableFrom(type);
            leftOut[i] = leftOutTypes.stream().anyMatch((name) -> OptionalTypes.isAssignable(name, type));
        }
        return new FingerprintParameters(leftOut, principals);
    }

    /**
     * Tells whether the default fingerprint covers a parameter.
     * @param index the parameter's position
     * @return {@code false} for a parameter the framework injects
     */
    boolean covers(int index) {
        return index >= this.leftOut.length || !this.leftOut[index];
    }

    /**
     * Returns what an argument contributes to the default fingerprint.
     * @param index the parameter's position
     * @param argument the argument
     * @return the argument, or a principal's name
     */
    @Nullable Object contribution(int index, @Nullable Object argument) {
        if (index < this.principals.length && this.principals[index] && argument instanceof Principal principal) {
            return principal.getName();
        }
        return argument;
    }

}
