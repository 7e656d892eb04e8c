package dev.resilience.web;

import java.lang.reflect.Method;

import dev.resilience.core.idempotency.IdempotencyOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

class IdempotentReplayHeaderListenerTests {

    private final IdempotentReplayHeaderListener listener = new IdempotentReplayHeaderListener();

    private final MockHttpServletResponse response = new MockHttpServletResponse();

    @AfterEach
    void unbindRequest() {
        RequestContextHolder.resetRequestAttributes();
    }

    @Test
    void replayOfTheHandlersOwnPolicyMarksTheResponse() {
        serve("create");

        this.listener.onIdempotency("OrderTestController#create", IdempotencyOutcome.REPLAYED);

        assertThat(this.response.getHeader(IdempotentReplayHeaderListener.HEADER)).isEqualTo("true");
    }

    @Test
    void replayOfAnotherIdempotentCallMadeByTheHandlerLeavesTheResponseAlone() {
        serve("create");

        this.listener.onIdempotency("PaymentService#pay", IdempotencyOutcome.REPLAYED);

        assertThat(this.response.getHeader(IdempotentReplayHeaderListener.HEADER)).isNull();
    }

    @Test
    void executedCallLeavesTheResponseAlone() {
        serve("create");

        this.listener.onIdempotency("OrderTestController#create", IdempotencyOutcome.EXECUTED);

        assertThat(this.response.getHeader(IdempotentReplayHeaderListener.HEADER)).isNull();
    }

    @Test
    void handlerThatIsNotIdempotentIsLeftAlone() {
        serve("tenant");

        this.listener.onIdempotency("OrderTestController#tenant", IdempotencyOutcome.REPLAYED);

        assertThat(this.response.getHeader(IdempotentReplayHeaderListener.HEADER)).isNull();
    }

    @Test
    void replayOutsideAnHttpRequestDoesNothing() {
        assertThatNoException()
            .isThrownBy(() -> this.listener.onIdempotency("OrderTestController#create", IdempotencyOutcome.REPLAYED));
    }

    private void serve(String handlerMethod) {
        Method method = findMethod(handlerMethod);
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/orders");
        request.setAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE,
                new HandlerMethod(new OrderTestController(), method));
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request, this.response));
    }

    private static Method findMethod(String name) {
        for (Method method : OrderTestController.class.getMethods()) {
            if (method.getName().equals(name)) {
                return method;
            }
        }
        throw new IllegalArgumentException(name);
    }

}
