package dev.resilience.web;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import dev.resilience.annotation.Idempotent;
import dev.resilience.aop.SpelVariables;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanExpressionContext;
import org.springframework.beans.factory.config.BeanExpressionResolver;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.Scope;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.http.HttpHeaders;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.ValueConstants;
import org.springframework.web.method.HandlerMethod;

/**
 * The request headers that the key of an {@link Idempotent @Idempotent} handler is made
 * of, and the check that refuses a request in which one of them is missing or blank with
 * an {@link IdempotencyKeyException}, which {@link IdempotencyProblemAdvice} answers with
 * 400 {@value IdempotencyProblemAdvice#KEY_INVALID}. Free of the Servlet API: Spring MVC
 * ({@link IdempotencyKeyHeaderInterceptor}) and WebFlux check the same headers.
 *
 * <p>
 * The headers checked are those of the handler's required
 * {@link RequestHeader @RequestHeader} parameters (no default value, not
 * {@code Optional}) that the annotation's key expression refers to, by name
 * ({@code #key}) or by position ({@code #p0}, {@code #a0}). Each is found where the web
 * framework finds it: the annotation may be declared on the handler method or on the
 * method it implements (an interface generated from OpenAPI, say), and its name may hold
 * {@code ${...}} placeholders and {@code #{...}} expressions, resolved through the bean
 * factory on every request as the framework resolves them. What a handler's key is made
 * of is worked out on its first request and kept. Thread-safe.
 */
public final class IdempotencyKeyHeaders {

    private static final SpelExpressionParser parser = new SpelExpressionParser();

    private static final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

    private final ConfigurableBeanFactory beanFactory;

    private final BeanExpressionContext expressionContext;

    private final Map<Method, List<String>> keyHeaders = new ConcurrentHashMap<>();

    /**
     * Creates the check of the headers that keys are made of.
     * @param beanFactory the application's bean factory, whose embedded value resolvers
     * and expression resolver the web framework uses for {@code @RequestHeader} names
     * @param scope the scope that {@code #{...}} expressions in header names are
     * evaluated in, as the web framework evaluates them: the request scope in Spring MVC,
     * none in WebFlux
     */
    public IdempotencyKeyHeaders(ConfigurableBeanFactory beanFactory, @Nullable Scope scope) {
        this.beanFactory = beanFactory;
        this.expressionContext = new BeanExpressionContext(beanFactory, scope);
    }

    /**
     * Tells whether a handler's key is made of request headers.
     * @param handler the handler chosen for a request
     * @return {@code true} when the handler is idempotent and its key refers to a
     * required {@code @RequestHeader} parameter
     */
    public boolean hasKeyHeaders(HandlerMethod handler) {
        return !declaredHeaders(handler).isEmpty();
    }

    /**
     * Checks the headers that the key of an idempotent handler is made of; a handler that
     * is not idempotent passes.
     * @param handler the handler chosen for the request
     * @param headers the request's first value of a header, by name, {@code null} when
     * the request has none
     * @throws IdempotencyKeyException when a header the key is made of is missing or
     * blank
     */
    public void check(HandlerMethod handler, Function<String, @Nullable String> headers) {
        for (String declared : declaredHeaders(handler)) {
            String header = resolve(declared);
            if (header != null) {
                check(header, headers.apply(header));
            }
        }
    }

    private List<String> declaredHeaders(HandlerMethod handler) {
        return this.keyHeaders.computeIfAbsent(handler.getMethod(), (method) -> keyHeaders(handler));
    }

    /**
     * Resolves a declared header name as the web framework's argument resolver does, on
     * every request: placeholders, then expressions. A name that resolves to {@code null}
     * is left to the framework, which refuses it.
     */
    private @Nullable String resolve(String declared) {
        String placeholdersResolved = this.beanFactory.resolveEmbeddedValue(declared);
        BeanExpressionResolver expressions = this.beanFactory.getBeanExpressionResolver();
        if (expressions == null) {
            return declared;
        }
        Object resolved = expressions.evaluate(placeholdersResolved, this.expressionContext);
        return (resolved != null) ? resolved.toString() : null;
    }

    private static void check(String header, @Nullable String value) {
        boolean keyHeader = IdempotencyProblemAdvice.IDEMPOTENCY_KEY_HEADER.equalsIgnoreCase(header);
        if (value == null) {
            throw new IdempotencyKeyException("Idempotency key is missing: " + (keyHeader
                    ? "send it in the " + header + " header" : "send the " + header + " header it is made of"));
        }
        if (value.isBlank()) {
            String blank = value.isEmpty() ? "empty" : "blank";
            throw new IdempotencyKeyException("Idempotency key is " + blank
                    + (keyHeader ? "" : ": the " + header + " header it is made of is " + blank));
        }
    }

    /**
     * Returns the declared headers of the required {@code @RequestHeader} parameters of a
     * handler that its {@code @Idempotent} key expression refers to, read as the web
     * framework reads them: the annotations of the handler method merged with those of
     * the methods it implements or overrides.
     * @param handlerMethod the handler method
     * @return the header names as declared, placeholders and expressions unresolved; none
     * when the handler is not idempotent or its expression does not parse (which fails
     * the start of a protected bean)
     */
    static List<String> keyHeaders(HandlerMethod handlerMethod) {
        Idempotent idempotent = handlerMethod.getMethodAnnotation(Idempotent.class);
        if (idempotent == null) {
            return List.of();
        }
        Set<String> variables;
        try {
            variables = SpelVariables.of(parser.parseRaw(idempotent.key()));
        }
        catch (ParseException ex) {
            return List.of();
        }
        String[] names = parameterNames.getParameterNames(handlerMethod.getMethod());
        List<String> headers = new ArrayList<>();
        for (MethodParameter parameter : handlerMethod.getMethodParameters()) {
            int i = parameter.getParameterIndex();
            String name = (names != null && i < names.length) ? names[i] : null;
            boolean referred = variables.contains("p" + i) || variables.contains("a" + i)
                    || (name != null && variables.contains(name));
            String header = referred ? requiredHeader(parameter, name) : null;
            if (header != null) {
                headers.add(header);
            }
        }
        return List.copyOf(headers);
    }

    private static @Nullable String requiredHeader(MethodParameter parameter, @Nullable String parameterName) {
        RequestHeader annotation = parameter.getParameterAnnotation(RequestHeader.class);
        if (annotation == null || !annotation.required()
                || !ValueConstants.DEFAULT_NONE.equals(annotation.defaultValue()) || parameter.isOptional()
                || Map.class.isAssignableFrom(parameter.getParameterType())
                || HttpHeaders.class.isAssignableFrom(parameter.getParameterType())) {
            return null;
        }
        String name = StringUtils.hasText(annotation.name()) ? annotation.name()
                : StringUtils.hasText(annotation.value()) ? annotation.value() : parameterName;
        return StringUtils.hasText(name) ? name : null;
    }

}
