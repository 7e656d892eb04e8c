package dev.resilience.aop;

import java.lang.reflect.Method;

import dev.resilience.registry.InvalidResiliencePolicyException;

/**
 * The annotations a method returning {@code Flux} cannot take, refused at startup
 * ({@code docs/design/reactive.md}): a stream cannot be raced element by element
 * ({@code @Hedged}), nor stored as one value to replay ({@code @Idempotent}) or to serve
 * when the method fails ({@code @Fallback(lastGood)}). Names no Reactor type.
 */
final class FluxMethods {

    private FluxMethods() {
    }

    /**
     * Fails for an annotation that does not apply to a method returning {@code Flux}.
     * @param method the method returning {@code Flux}
     * @param annotations its annotations, its class's included
     * @param subject the bean and method, for the failure analysis
     * @throws InvalidResiliencePolicyException for {@code @Hedged}, {@code @Idempotent}
     * or {@code @Fallback(lastGood)}
     */
    static void requireApplicableAnnotations(Method method, ResilienceAnnotations annotations, String subject) {
        String declaration = "Flux " + method.getName();
        if (annotations.hedged() != null) {
            throw new InvalidResiliencePolicyException(subject, "@Hedged", declaration,
                    "a Flux cannot be hedged: its elements reach the subscriber as they come, so two racing streams "
                            + "could be neither merged without showing an element twice nor raced without holding "
                            + "every element until one stream ends",
                    "Remove @Hedged, or hedge a method returning Mono (Flux#collectList() gives one) and stream its "
                            + "value with flatMapMany.");
        }
        if (annotations.idempotent() != null) {
            throw new InvalidResiliencePolicyException(subject, "@Idempotent", declaration,
                    "a Flux cannot be stored as one value to replay: its elements reach the subscriber as they come, "
                            + "and a replay would need all of them",
                    "Return the collected elements from the idempotent method (Flux#collectList() gives a "
                            + "Mono<List<T>>, and toFuture() a CompletableFuture of it), or remove @Idempotent.");
        }
        if (annotations.fallback() != null && !annotations.fallback().lastGood().isBlank()) {
            throw new InvalidResiliencePolicyException(subject, "@Fallback(lastGood)", declaration,
                    "a last good value is one value, while a Flux is a stream: only its first element would be kept "
                            + "and served",
                    "Name fallback methods in @Fallback(value) instead of lastGood (one may return Flux<T>, T or "
                            + "List<T>).");
        }
    }

}
