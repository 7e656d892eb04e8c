package dev.resilience.aop;

import java.lang.reflect.Method;

import dev.resilience.registry.InvalidResiliencePolicyException;

/**
 * The annotations a method returning {@code Flux}, or a Kotlin {@code Flow}, cannot take,
 * refused at startup ({@code docs/design/reactive.md}): a stream cannot be raced element
 * by element ({@code @Hedged}), nor stored as one value to replay ({@code @Idempotent})
 * or to serve when the method fails ({@code @Fallback(lastGood)}). Names no Reactor type.
 */
final class FluxMethods {

    private FluxMethods() {
    }

    /**
     * Fails for an annotation that does not apply to a method returning {@code Flux} or
     * {@code Flow}.
     * @param method the method returning {@code Flux} or {@code Flow}
     * @param kind how it returns ({@link ReturnKind#isFlux()})
     * @param annotations its annotations, its class's included
     * @param subject the bean and method, for the failure analysis
     * @throws InvalidResiliencePolicyException for {@code @Hedged}, {@code @Idempotent}
     * or {@code @Fallback(lastGood)}
     */
    static void requireApplicableAnnotations(Method method, ReturnKind kind, ResilienceAnnotations annotations,
            String subject) {
        boolean flow = kind != ReturnKind.FLUX;
        String stream = flow ? "Flow" : "Flux";
        String declaration = ((kind == ReturnKind.SUSPEND_FLOW) ? "suspend " : "") + stream + " " + method.getName();
        if (annotations.hedged() != null) {
            throw new InvalidResiliencePolicyException(subject, "@Hedged", declaration, "a " + stream
                    + " cannot be hedged: its elements reach the " + (flow ? "collector" : "subscriber")
                    + " as they come, so two racing streams could be neither merged without showing an element twice "
                    + "nor raced without holding every element until one stream ends",
                    flow ? "Remove @Hedged, or hedge a suspend function returning the collected elements "
                            + "(Flow#toList() gives a List<T>) and stream them with asFlow()."
                            : "Remove @Hedged, or hedge a method returning Mono (Flux#collectList() gives one) and "
                                    + "stream its value with flatMapMany.");
        }
        if (annotations.idempotent() != null) {
            throw new InvalidResiliencePolicyException(subject, "@Idempotent", declaration,
                    "a " + stream + " cannot be stored as one value to replay: its elements reach the "
                            + (flow ? "collector" : "subscriber")
                            + " as they come, and a replay would need all of them",
                    flow ? "Return the collected elements from an idempotent suspend function (Flow#toList() gives "
                            + "a List<T>), or remove @Idempotent."
                            : "Return the collected elements from the idempotent method (Flux#collectList() gives a "
                                    + "Mono<List<T>>, and toFuture() a CompletableFuture of it), or remove "
                                    + "@Idempotent.");
        }
        if (annotations.fallback() != null && !annotations.fallback().lastGood().isBlank()) {
            throw new InvalidResiliencePolicyException(subject, "@Fallback(lastGood)", declaration,
                    "a last good value is one value, while a " + stream
                            + " is a stream: only its first element would be kept and served",
                    "Name fallback methods in @Fallback(value) instead of lastGood (one may return "
                            + (flow ? "Flow<T>, Flux<T>" : "Flux<T>") + ", T or List<T>).");
        }
    }

}
