package dev.resilience.aop;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import dev.resilience.annotation.Bulkhead;
import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Hedged;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.RateLimited;
import dev.resilience.annotation.Retryable;
import dev.resilience.annotation.TimeLimited;
import dev.resilience.chaos.ChaosInstances;
import dev.resilience.registry.InvalidResiliencePolicyException;
import dev.resilience.core.FallbackChain;
import dev.resilience.core.FallbackHandler;
import dev.resilience.core.LastGood;
import dev.resilience.core.ResiliencePipeline;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.lastgood.InMemoryLastGoodStore;
import dev.resilience.core.lastgood.LastGoodStore;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.registry.CallStatistics;
import dev.resilience.registry.HedgingInstance;
import dev.resilience.registry.ResiliencePolicies;
import dev.resilience.registry.ResilienceRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.ResolvableType;

/**
 * Compiles an annotated method into its {@link ResilientMethod}: names its instances
 * ({@code SimpleClassName#method} where a name is left empty) and checks the names
 * against the other methods' ({@link InstanceNameConflicts}), resolves its policies,
 * fallback methods and key expressions, and fails with an
 * {@link InvalidResiliencePolicyException} naming the bean, the method and the setting
 * when anything does not fit.
 */
final class ResilientMethodCompiler {

    private final ResiliencePolicies policies;

    private final CallObserver observer;

    private final IdempotencyScopeResolver scopes;

    private final IdempotencyFingerprints fingerprints;

    private final @Nullable ChaosInstances chaos;

    private final Supplier<LastGoodStore> lastGoodStore;

    private final InstanceNameConflicts names = new InstanceNameConflicts();

    private final ResultPredicates results = new ResultPredicates();

    private volatile CallContextCustomizer customizer = CallContextCustomizer.NONE;

    private volatile @Nullable ReactiveIdempotencyScopeResolver subscriberScopes;

    private volatile @Nullable ClassLoader classLoader = ResilientMethodCompiler.class.getClassLoader();

    ResilientMethodCompiler(ResiliencePolicies policies, CallObserver observer, IdempotencyScopeResolver scopes,
            IdempotencyFingerprints fingerprints, @Nullable ChaosInstances chaos,
            Supplier<LastGoodStore> lastGoodStore) {
        this.policies = policies;
        this.lastGoodStore = lastGoodStore;
        this.chaos = chaos;
        this.observer = observer;
        this.scopes = scopes;
        this.fingerprints = fingerprints;
    }

    void customizeCalls(CallContextCustomizer customizer) {
        this.customizer = this.customizer.andThen(customizer);
    }

    void scopeSubscribers(ReactiveIdempotencyScopeResolver scopes) {
        this.subscriberScopes = scopes;
    }

    /**
     * Protects reactive methods only when the libraries that carry them are on this class
     * path.
     */
    void loadFrom(@Nullable ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    /** Lets result expressions refer to the application's beans. */
    void referTo(BeanFactory beans) {
        this.results.referTo(beans);
    }

    /** Checks what the result expressions of the startup's methods refer to. */
    void started() {
        this.results.started(this.policies.registry());
    }

    ResilientMethod compile(Method method, Class<?> targetClass, ResilienceAnnotations annotations, String beanName) {
        String id = InstanceNames.defaultName(targetClass, method);
        String subject = subject(beanName, targetClass, method);
        try {
            return compile(method, targetClass, annotations, beanName, id, subject);
        }
        catch (InvalidResiliencePolicyException ex) {
            if (ex.getSubject().startsWith(subject)) {
                throw ex;
            }
            throw ex.about(subject + ", " + ex.getSubject());
        }
    }

    private ResilientMethod compile(Method method, Class<?> targetClass, ResilienceAnnotations annotations,
            String beanName, String id, String subject) {
        ProtectableMethods.requireSupportedReturnType(method, subject, this.classLoader);
        ReturnKind returnKind = ReturnKind.of(method);
        if (returnKind.isFlux()) {
            FluxMethods.requireApplicableAnnotations(method, returnKind, annotations, subject);
        }
        Retryable retryable = annotations.retryable();
        CircuitGuarded circuitGuarded = annotations.circuitGuarded();
        Idempotent idempotent = annotations.idempotent();
        String retryName = (retryable != null) ? name(retryable.value(), retryable.name(), id, "@Retryable", subject)
                : null;
        String breakerName = (circuitGuarded != null)
                ? name(circuitGuarded.value(), circuitGuarded.name(), id, "@CircuitGuarded", subject) : null;
        String idempotencyName = (idempotent != null) ? InstanceNames.idempotencyName(targetClass, method, idempotent)
                : null;
        Bulkhead bulkhead = annotations.bulkhead();
        RateLimited rateLimited = annotations.rateLimited();
        String bulkheadName = (bulkhead != null) ? name(bulkhead.value(), bulkhead.name(), id, "@Bulkhead", subject)
                : null;
        String rateLimiterName = (rateLimited != null)
                ? name(rateLimited.value(), rateLimited.name(), id, "@RateLimited", subject) : null;
        TimeLimited timeLimited = annotations.timeLimited();
        String timeLimiterName = (timeLimited != null)
                ? name(timeLimited.value(), timeLimited.name(), id, "@TimeLimited", subject) : null;
        Hedged hedged = annotations.hedged();
        String hedgingName = (hedged != null) ? name(hedged.value(), hedged.name(), id, "@Hedged", subject) : null;
        Declarations declarations = new Declarations(beanName, targetClass, method);
        checkNames(declarations, annotations, id, retryName, breakerName);
        checkGuardNames(declarations, bulkhead, bulkheadName, rateLimited, rateLimiterName);
        checkPolicyName(declarations, timeLimited, timeLimiterName,
                timeLimited != null && timeLimited.value().isBlank() && timeLimited.name().isBlank(),
                this.names::timeLimiter);
        checkPolicyName(declarations, hedged, hedgingName,
                hedged != null && hedged.value().isBlank() && hedged.name().isBlank(), this.names::hedging);
        String pipelineName = firstNonNull(retryName, breakerName, idempotencyName,
                firstNonNull(rateLimiterName, bulkheadName, firstNonNull(timeLimiterName, hedgingName, id, id), id));
        ResiliencePipeline.Builder pipeline = this.policies.pipeline(pipelineName);
        ResilienceRegistry registry = this.policies.registry();
        CallStatistics statistics = registry.statistics(pipelineName);
        RetryPolicy retry = (retryName != null) ? registry.retry(retryName, retryable) : null;
        if (retry != null) {
            retry = this.results.withRetryOnResult(retry, retryable, method, subject);
            pipeline.retry(retry);
        }
        if (breakerName != null) {
            pipeline.circuitBreaker(registry.circuitBreaker(breakerName, circuitGuarded,
                    this.results.failOnResult(breakerName, circuitGuarded, method, subject)));
        }
        if (rateLimiterName != null) {
            pipeline.rateLimiter(registry.rateLimiter(rateLimiterName, rateLimited));
        }
        if (bulkheadName != null) {
            pipeline.bulkhead(registry.bulkhead(bulkheadName, bulkhead));
        }
        if (timeLimiterName != null) {
            pipeline.timeLimit(registry.timeLimit(timeLimiterName, timeLimited));
        }
        if (hedgingName != null) {
            HedgingInstance hedging = registry.hedging(hedgingName, hedged);
            pipeline.hedging(hedging.policy()).listener(hedging);
        }
        Fallback fallback = annotations.fallback();
        boolean lastGood = false;
        if (fallback != null) {
            if (fallback.value().length > 0) {
                FallbackChain chain = FallbackMethods.resolve(method, targetClass, fallback, subject);
                chain.handlers().stream().map(FallbackHandler::name).forEach(statistics::registerFallback);
                pipeline.fallbacks(chain);
            }
            lastGood = lastGood(method, targetClass, fallback, returnKind, id, subject, pipeline);
            if (lastGood) {
                statistics.registerFallback(LastGood.FALLBACK_NAME);
            }
        }
        IdempotencyKeyExpressions keys = null;
        if (idempotencyName != null) {
            if (this.scopes != IdempotencyScopeResolver.NONE) {
                ProtectableMethods.requireCallersThread(method, targetClass, subject);
            }
            keys = IdempotencyKeyExpressions.compile(method, id, idempotent, this.fingerprints, subject);
            IdempotencyPolicy idempotency = this.policies.idempotency(idempotencyName, idempotent);
            requireDeclaredResultType(idempotency, method, targetClass, returnKind, subject);
            pipeline.idempotency(idempotency.withResultType(valueType(method, targetClass, returnKind)));
            statistics.registerIdempotency(idempotencyName);
        }
        ResiliencePipeline built = pipeline.build();
        IdempotencyLeaseCheck.check(id + " of bean '" + beanName + "'", built, retryName, timeLimiterName);
        this.results.compiled(registry);
        boolean scoped = returnKind.isMono() && (keys != null || lastGood);
        return new ResilientMethod(method, id, built, returnKind, keys, this.scopes, this.observer,
                (this.chaos != null) ? this.chaos.instance(pipelineName) : null, lastGood,
                (context) -> this.customizer.customize(context),
                scoped ? SubscriberScopes.of(this.subscriberScopes, this.scopes) : null,
                (returnKind.isMono() || returnKind.isFlux()) && StoresThatMayBlock.in(built));
    }

    /**
     * Adds the last good value of {@code @Fallback(lastGood)} to a pipeline, and fails
     * for an annotation that names no fallback and keeps no last good value.
     * @return whether the method keeps last good values
     */
    private boolean lastGood(Method method, Class<?> targetClass, Fallback fallback, ReturnKind returnKind, String id,
            String subject, ResiliencePipeline.Builder pipeline) {
        String text = fallback.lastGood();
        if (text.isBlank()) {
            if (fallback.value().length == 0) {
                throw new InvalidResiliencePolicyException(subject, "@Fallback", "(no value, no lastGood)",
                        "it names no fallback method and keeps no last good value, so it would do nothing",
                        "Name the fallback methods in @Fallback(value), set @Fallback(lastGood = \"1h\") to serve "
                                + "the method's last good value, or remove the annotation.");
            }
            return false;
        }
        Duration ttl;
        try {
            ttl = DurationStyle.detectAndParse(text.strip());
        }
        catch (RuntimeException ex) {
            ttl = Duration.ZERO;
        }
        if (ttl.isNegative() || ttl.isZero()) {
            throw new InvalidResiliencePolicyException(subject, "@Fallback(lastGood)", text,
                    "it is not a positive duration",
                    "Write how long a value is kept, such as \"1h\", \"10m\" or \"PT30S\".");
        }
        LastGoodStore store = this.lastGoodStore.get();
        Type valueType = valueType(method, targetClass, returnKind);
        if (!(store instanceof InMemoryLastGoodStore)) {
            Class<?> resolved = ResolvableType.forType(valueType).resolve();
            if (resolved == null || resolved == Object.class) {
                throw new InvalidResiliencePolicyException(subject, "return type", valueType.getTypeName(),
                        "a last good value kept in " + store.getClass().getSimpleName()
                                + " is read back only into the method's declared type, and this one declares none",
                        "Declare the type the method returns, or keep last good values in memory "
                                + "(resilience.fallback.last-good.store=memory).");
            }
        }
        pipeline.lastGood(
                new LastGood(store, ttl, valueType, new LastGoodKeys(method, targetClass, id, this.fingerprints)::key,
                        List.of(fallback.applyOn()), List.of(fallback.skipOn())));
        return true;
    }

    private void checkNames(Declarations declarations, ResilienceAnnotations annotations, String id,
            @Nullable String retryName, @Nullable String breakerName) {
        Retryable retryable = annotations.retryable();
        CircuitGuarded circuitGuarded = annotations.circuitGuarded();
        Idempotent idempotent = annotations.idempotent();
        if (retryable != null && retryable.value().isBlank() && retryable.name().isBlank()) {
            this.names.defaultName(declarations.of(retryable), id);
        }
        else if (circuitGuarded != null && circuitGuarded.value().isBlank() && circuitGuarded.name().isBlank()) {
            this.names.defaultName(declarations.of(circuitGuarded), id);
        }
        else if (idempotent != null && idempotent.name().isBlank()) {
            this.names.defaultName(declarations.of(idempotent), id);
        }
        if (retryable != null && retryName != null) {
            this.names.retry(declarations.of(retryable), retryName);
        }
        if (circuitGuarded != null && breakerName != null) {
            this.names.breaker(declarations.of(circuitGuarded), breakerName);
        }
    }

    /**
     * Records the bulkhead and rate limiter names of a method: a method that leaves them
     * empty goes by its default name, which no other method may share unless it names it,
     * and two annotations of one name must configure it alike.
     */
    private void checkGuardNames(Declarations declarations, @Nullable Bulkhead bulkhead, @Nullable String bulkheadName,
            @Nullable RateLimited rateLimited, @Nullable String rateLimiterName) {
        if (bulkhead != null && bulkheadName != null) {
            if (bulkhead.value().isBlank() && bulkhead.name().isBlank()) {
                this.names.defaultName(declarations.of(bulkhead), bulkheadName);
            }
            this.names.bulkhead(declarations.of(bulkhead), bulkheadName);
        }
        if (rateLimited != null && rateLimiterName != null) {
            if (rateLimited.value().isBlank() && rateLimited.name().isBlank()) {
                this.names.defaultName(declarations.of(rateLimited), rateLimiterName);
            }
            this.names.rateLimiter(declarations.of(rateLimited), rateLimiterName);
        }
    }

    /** Records a time limiter's or hedging instance's name, as for the guards. */
    private void checkPolicyName(Declarations declarations, @Nullable Annotation annotation, @Nullable String name,
            boolean unnamed, BiConsumer<InstanceNameConflicts.Declaration, String> names) {
        if (annotation != null && name != null) {
            if (unnamed) {
                this.names.defaultName(declarations.of(annotation), name);
            }
            names.accept(declarations.of(annotation), name);
        }
    }

    /**
     * Describes a method of a bean for a failure analysis.
     * @param beanName the bean's name
     * @param targetClass the class the annotations are read from
     * ({@link TargetClasses#annotatedClass})
     * @param method the method
     * @return {@code bean 'name', method SimpleClassName#method}
     */
    static String subject(String beanName, Class<?> targetClass, Method method) {
        return "bean '" + beanName + "', method " + InstanceNames.defaultName(targetClass, method);
    }

    private static Type valueType(Method method, Class<?> targetClass, ReturnKind returnKind) {
        ResolvableType valueType = returnKind.valueType(ResolvableType.forMethodReturnType(method, targetClass));
        return (valueType == ResolvableType.NONE) ? Object.class : valueType.getType();
    }

    /**
     * Fails for a method whose result declares no type to read a replay into
     * ({@code Object}, a type variable, or an {@code Optional} of one) when its store
     * requires one.
     */
    private static void requireDeclaredResultType(IdempotencyPolicy idempotency, Method method, Class<?> targetClass,
            ReturnKind returnKind, String subject) {
        if (!idempotency.store().requiresDeclaredResultType()) {
            return;
        }
        ResolvableType returnType = ResolvableType.forMethodReturnType(method, targetClass);
        ResolvableType valueType = returnKind.valueType(returnType);
        ResolvableType optional = valueType.as(Optional.class);
        ResolvableType declared = (optional != ResolvableType.NONE) ? optional.getGeneric(0) : valueType;
        Class<?> resolved = declared.resolve();
        if (resolved != null && resolved != Object.class) {
            return;
        }
        throw new InvalidResiliencePolicyException(subject, "return type", returnType.toString(),
                "the result of an @Idempotent method is read back only into its declared type, and "
                        + ((resolved == null) ? "a type variable" : "java.lang.Object")
                        + " declares none with resilience.idempotency.store=redis, whose stored data would "
                        + "otherwise choose the class",
                "Declare the concrete return type (such as Receipt, CompletableFuture<Receipt> or "
                        + "Optional<Receipt>), or keep this method's results in the memory store.");
    }

    private static String name(String value, String name, String defaultName, String annotation, String subject) {
        if (!value.isEmpty() && !name.isEmpty() && !value.equals(name)) {
            throw new InvalidResiliencePolicyException(subject, annotation + "(value, name)", value + ", " + name,
                    "value and name are aliases but differ", "Set only one of value and name.");
        }
        String chosen = !value.isEmpty() ? value : name;
        return chosen.isBlank() ? defaultName : chosen;
    }

    private static String firstNonNull(@Nullable String first, @Nullable String second, @Nullable String third,
            String fallback) {
        if (first != null) {
            return first;
        }
        if (second != null) {
            return second;
        }
        return (third != null) ? third : fallback;
    }

    private record Declarations(String beanName, Class<?> targetClass, Method method) {

        InstanceNameConflicts.Declaration of(Annotation annotation) {
            return new InstanceNameConflicts.Declaration(this.beanName, this.targetClass, this.method, annotation);
        }
    }

}
