package dev.resilience.web;

import dev.resilience.annotation.Idempotent;
import dev.resilience.aop.InstanceNames;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Adds {@value #HEADER}{@code : true} to the response of a request whose
 * {@link Idempotent @Idempotent} handler method was replayed from the idempotency store.
 *
 * <p>
 * As an {@link ExecutionListener} bean it is told of every idempotent call. It acts only
 * when the call is made on a thread that is serving a Spring MVC request, the request's
 * handler method is {@code @Idempotent}, and the replayed policy is that method's (by
 * name: {@code @Idempotent(name)}, or {@code SimpleClassName#method}); a replay of
 * another idempotent method called from the handler, or of any call outside a request,
 * changes nothing. The header is set on the response before the replayed value is
 * written, so the status and body are those of the replayed value. Stateless and
 * thread-safe.
 */
public final class IdempotentReplayHeaderListener implements ExecutionListener {

    /** The header that marks a replayed response. */
    public static final String HEADER = "Idempotent-Replayed";

    /**
     * Marks the current response as replayed when the replay is its handler's.
     * @param name the idempotency policy's name
     * @param outcome what the store decided
     */
    @Override
    public void onIdempotency(String name, IdempotencyOutcome outcome) {
        if (outcome != IdempotencyOutcome.REPLAYED) {
            return;
        }
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        if (!(attributes instanceof ServletRequestAttributes servlet)) {
            return;
        }
        HttpServletResponse response = servlet.getResponse();
        if (response != null && !response.isCommitted() && name.equals(handlerPolicyName(servlet))) {
            response.setHeader(HEADER, "true");
        }
    }

    private static @Nullable String handlerPolicyName(ServletRequestAttributes attributes) {
        Object handler = attributes.getRequest().getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE);
        if (!(handler instanceof HandlerMethod method)) {
            return null;
        }
        Idempotent idempotent = AnnotatedElementUtils.findMergedAnnotation(method.getMethod(), Idempotent.class);
        if (idempotent == null) {
            return null;
        }
        return InstanceNames.idempotencyName(method.getBeanType(), method.getMethod(), idempotent);
    }

}
