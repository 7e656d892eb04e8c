package dev.resilience.web;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import dev.resilience.annotation.Idempotent;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.expression.StandardBeanExpressionResolver;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.ReflectionUtils;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.method.HandlerMethod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class IdempotencyKeyHeaderInterceptorTests {

    private final IdempotencyKeyHeaderInterceptor interceptor = new IdempotencyKeyHeaderInterceptor(beanFactory());

    @Test
    void keyMadeOfAHeaderParameterByNameChecksThatHeader() {
        assertThat(IdempotencyKeyHeaders.keyHeaders(handler("byName"))).containsExactly("Idempotency-Key");
    }

    @Test
    void keyMadeOfHeaderParametersByPositionChecksThoseHeaders() {
        assertThat(IdempotencyKeyHeaders.keyHeaders(handler("byPosition"))).containsExactly("X-Tenant",
                "Idempotency-Key");
    }

    @Test
    void headerWithoutANameIsTheParametersName() {
        assertThat(IdempotencyKeyHeaders.keyHeaders(handler("unnamedHeader"))).containsExactly("tenant");
    }

    @Test
    void headersTheKeyIsNotMadeOfAreNotChecked() {
        assertThat(IdempotencyKeyHeaders.keyHeaders(handler("otherHeader"))).containsExactly("Idempotency-Key");
    }

    @Test
    void headersThatAreNotRequiredAreNotChecked() {
        assertThat(IdempotencyKeyHeaders.keyHeaders(handler("notRequired"))).isEmpty();
        assertThat(IdempotencyKeyHeaders.keyHeaders(handler("defaultValue"))).isEmpty();
        assertThat(IdempotencyKeyHeaders.keyHeaders(handler("optional"))).isEmpty();
        assertThat(IdempotencyKeyHeaders.keyHeaders(handler("allHeaders"))).isEmpty();
        assertThat(IdempotencyKeyHeaders.keyHeaders(handler("headerMap"))).isEmpty();
    }

    @Test
    void handlerThatIsNotIdempotentChecksNoHeader() {
        assertThat(IdempotencyKeyHeaders.keyHeaders(handler("notIdempotent"))).isEmpty();
    }

    @Test
    void missingKeyHeaderIsRefusedAsAMissingKey() {
        assertThatExceptionOfType(IdempotencyKeyException.class)
            .isThrownBy(() -> preHandle("byName", new MockHttpServletRequest()))
            .withMessage("Idempotency key is missing: send it in the Idempotency-Key header");
    }

    @Test
    void blankKeyHeaderIsRefusedAsABlankKey() {
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.addHeader("Idempotency-Key", "  ");

        assertThatExceptionOfType(IdempotencyKeyException.class).isThrownBy(() -> preHandle("byName", request))
            .withMessage("Idempotency key is blank");
    }

    @Test
    void missingOrEmptyHeaderOfAnotherNameIsNamedAsThePartOfTheKeyItIs() {
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.addHeader("Idempotency-Key", "k-1");

        assertThatExceptionOfType(IdempotencyKeyException.class).isThrownBy(() -> preHandle("byPosition", request))
            .withMessage("Idempotency key is missing: send the X-Tenant header it is made of");
        request.addHeader("X-Tenant", "");
        assertThatExceptionOfType(IdempotencyKeyException.class).isThrownBy(() -> preHandle("byPosition", request))
            .withMessage("Idempotency key is empty: the X-Tenant header it is made of is empty");
    }

    @Test
    void requestWithTheHeadersGoesOn() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.addHeader("Idempotency-Key", "k-1");
        request.addHeader("X-Tenant", "acme");

        assertThat(preHandle("byPosition", request)).isTrue();
    }

    @Test
    void requestToAHandlerThatIsNotIdempotentOrNotAMethodGoesOn() throws Exception {
        assertThat(preHandle("notIdempotent", new MockHttpServletRequest())).isTrue();
        assertThat(
                this.interceptor.preHandle(new MockHttpServletRequest(), new MockHttpServletResponse(), new Object()))
            .isTrue();
    }

    @Test
    void headerDeclaredOnTheImplementedInterfaceMethodIsChecked() {
        assertThat(IdempotencyKeyHeaders.keyHeaders(handler("declaredOnTheInterface")))
            .containsExactly("Idempotency-Key");
    }

    @Test
    void headerNamedByAPlaceholderIsCheckedUnderTheNameItResolvesTo() throws Exception {
        assertThatExceptionOfType(IdempotencyKeyException.class)
            .isThrownBy(() -> preHandle("placeholder", new MockHttpServletRequest()))
            .withMessage("Idempotency key is missing: send the X-Parcel-Key header it is made of");
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.addHeader("X-Parcel-Key", "k-1");

        assertThat(preHandle("placeholder", request)).isTrue();
    }

    @Test
    void headerNamedByAnUnresolvablePlaceholderWithADefaultIsCheckedUnderTheDefault() {
        assertThatExceptionOfType(IdempotencyKeyException.class)
            .isThrownBy(() -> preHandle("placeholderWithDefault", new MockHttpServletRequest()))
            .withMessage("Idempotency key is missing: send it in the Idempotency-Key header");
    }

    @Test
    void headerNamedByAnExpressionIsCheckedUnderTheNameItEvaluatesTo() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.addHeader("Idempotency-Key", "k-1");

        assertThatExceptionOfType(IdempotencyKeyException.class).isThrownBy(() -> preHandle("expression", request))
            .withMessage("Idempotency key is missing: send the X-Tenant header it is made of");
        request.addHeader("X-Tenant", "acme");
        assertThat(preHandle("expression", request)).isTrue();
    }

    private boolean preHandle(String name, MockHttpServletRequest request) throws Exception {
        return this.interceptor.preHandle(request, new MockHttpServletResponse(), handler(name));
    }

    private static HandlerMethod handler(String name) {
        return new HandlerMethod(new Handlers(), method(name));
    }

    /**
     * A bean factory that resolves placeholders and expressions as an application
     * context's.
     */
    private static ConfigurableBeanFactory beanFactory() {
        MockEnvironment environment = new MockEnvironment().withProperty("parcels.key-header", "X-Parcel-Key");
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        beanFactory.addEmbeddedValueResolver(environment::resolveRequiredPlaceholders);
        beanFactory.setBeanExpressionResolver(new StandardBeanExpressionResolver());
        return beanFactory;
    }

    private static Method method(String name) {
        for (Method method : ReflectionUtils.getDeclaredMethods(Handlers.class)) {
            if (method.getName().equals(name)) {
                return method;
            }
        }
        throw new IllegalArgumentException(name);
    }

    interface HandlersApi {

        void declaredOnTheInterface(@RequestHeader("Idempotency-Key") String key);

    }

    static class Handlers implements HandlersApi {

        @Idempotent(key = "#key")
        public void byName(@RequestHeader("Idempotency-Key") String key) {
        }

        @Idempotent(key = "#p0 + ':' + #a1")
        public void byPosition(@RequestHeader(name = "X-Tenant") String tenant,
                @RequestHeader("Idempotency-Key") UUID key) {
        }

        @Idempotent(key = "#tenant")
        public void unnamedHeader(@RequestHeader String tenant) {
        }

        @Idempotent(key = "#key")
        public void otherHeader(@RequestHeader("Idempotency-Key") String key, @RequestHeader("X-Trace") String trace) {
        }

        @Idempotent(key = "#key")
        public void notRequired(@RequestHeader(name = "Idempotency-Key", required = false) String key) {
        }

        @Idempotent(key = "#key")
        public void defaultValue(@RequestHeader(name = "Idempotency-Key", defaultValue = "none") String key) {
        }

        @Idempotent(key = "#key.orElse('none')")
        public void optional(@RequestHeader("Idempotency-Key") Optional<String> key) {
        }

        @Idempotent(key = "#headers.getFirst('Idempotency-Key')")
        public void allHeaders(@RequestHeader HttpHeaders headers) {
        }

        @Idempotent(key = "#headers['idempotency-key']")
        public void headerMap(@RequestHeader Map<String, String> headers) {
        }

        public void notIdempotent(@RequestHeader("Idempotency-Key") String key) {
        }

        @Override
        @Idempotent(key = "#key")
        public void declaredOnTheInterface(String key) {
        }

        @Idempotent(key = "#key")
        public void placeholder(@RequestHeader("${parcels.key-header}") String key) {
        }

        @Idempotent(key = "#key")
        public void placeholderWithDefault(@RequestHeader("${parcels.absent-header:Idempotency-Key}") String key) {
        }

        @Idempotent(key = "#tenant + ':' + #key")
        public void expression(@RequestHeader("#{'X-' + 'Tenant'}") String tenant,
                @RequestHeader("Idempotency-Key") String key) {
        }

    }

}
