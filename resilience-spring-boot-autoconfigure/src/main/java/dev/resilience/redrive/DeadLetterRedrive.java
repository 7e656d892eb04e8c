package dev.resilience.redrive;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.resilience.annotation.Idempotent;
import dev.resilience.aop.IdempotencyScopeResolver;
import dev.resilience.aop.ResilientMethods;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterClaim;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.deadletter.DeadLetterText;
import dev.resilience.core.time.Durations;
import dev.resilience.redrive.RedriveResult.DeadLetterState;
import dev.resilience.redrive.RedriveResult.Outcome;
import dev.resilience.registry.ArgumentRenderer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.CoroutinesUtils;
import org.springframework.core.KotlinDetector;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.annotation.Async;
import org.springframework.util.ReflectionUtils;

/**
 * Re-drives dead letters: runs a dead letter's call again through its bean's proxy, so
 * that every policy of the method applies again, with the stored arguments read back into
 * the method's parameter types by the mapper that rendered them.
 *
 * <p>
 * A re-drive first reads the arguments back: when they cannot be read faithfully (see
 * {@link StoredArguments}), or the method no longer exists, the call does not run and the
 * dead letter is kept ({@link Outcome#UNREADABLE}). It then claims the dead letter
 * ({@link DeadLetterStore#claim}), which succeeds for one caller only, in memory and in
 * Redis alike: a second re-drive of the same letter meanwhile, from this instance or
 * another, finds it held ({@link Outcome#IN_PROGRESS}) and does not run the call. The
 * letter stays stored while claimed, so an instance that dies mid-call loses nothing: its
 * claim runs out after the lease. On success the letter is deleted; when the call fails
 * again the claim is released and the original letter stays as it was: the re-run's own
 * letter is never written to the store (see {@link RedrivenCalls}), so one undone call
 * keeps one letter, and a full store evicts nothing for it. An idempotent method's key is
 * worked out again by its key expression from the same arguments, so work that was in
 * fact done is replayed, not run twice.
 *
 * <p>
 * Thread-safe. The call runs on the calling thread; an asynchronous method is waited for
 * at most the lease, then cancelled; the {@code Mono} or {@code Flux} of a reactive one
 * is subscribed to, run to the end of its stream and disposed alike, and so is that of a
 * Kotlin {@code suspend} function, whose letter holds its value arguments and which is
 * invoked as Spring invokes one. A re-run whose account ends without success fails the
 * re-drive, also when the method hands its account back instead of failing
 * ({@code Mono<ExecutionResult<T>>}).
 */
public final class DeadLetterRedrive {

    private static final Log logger = LogFactory.getLog(DeadLetterRedrive.class);

    /** The default of the longest a claim holds a letter without being ended. */
    public static final Duration DEFAULT_LEASE = Duration.ofMinutes(10);

    private final boolean callerScopedKeys;

    private final Duration lease;

    private final DeadLetterStore store;

    private final ResilientMethods methods;

    private final BeanFactory beans;

    private final StoredArguments arguments;

    private final RedrivenCalls calls;

    private final List<RedriveListener> listeners;

    /**
     * Creates the re-drive.
     * @param store the dead letters
     * @param methods the application's annotated methods
     * @param beans the beans whose proxies run the calls
     * @param mapper the mapper that reads the arguments back, the renderer's
     * @param renderer the renderer that wrote the arguments
     * @param calls the calls being re-driven, a listener of every pipeline
     * @param listeners who hears how each re-drive ended
     * @param scopes the scope of idempotency keys; an {@code @Idempotent} call is not
     * re-driven unless it is {@link IdempotencyScopeResolver#NONE}
     * @param lease the longest a re-drive's claim holds its letter when it is never ended
     * (the instance died); longer than the slowest re-driven call, or a second re-drive
     * may run the call beside it
     * @throws IllegalArgumentException if {@code lease} is shorter than 1 ms
     */
    public DeadLetterRedrive(DeadLetterStore store, ResilientMethods methods, BeanFactory beans, JsonMapper mapper,
            ArgumentRenderer renderer, RedrivenCalls calls, List<RedriveListener> listeners,
            IdempotencyScopeResolver scopes, Duration lease) {
        if (lease.toMillis() < 1) {
            throw new IllegalArgumentException("lease must be at least 1 ms, was " + lease);
        }
        this.lease = lease;
        this.callerScopedKeys = scopes != IdempotencyScopeResolver.NONE;
        this.store = store;
        this.methods = methods;
        this.beans = beans;
        this.arguments = new StoredArguments(mapper, renderer);
        this.calls = calls;
        this.listeners = List.copyOf(listeners);
    }

    /**
     * Runs a dead letter's call again.
     * @param id the dead letter's id
     * @return how it ended; never throws for the call's failure
     */
    public RedriveResult redrive(String id) {
        RedriveResult result = attempt(id);
        for (RedriveListener listener : this.listeners) {
            try {
                listener.onRedrive(result);
            }
            catch (RuntimeException ex) {
                // A listener never changes the outcome
            }
        }
        return result;
    }

    private RedriveResult attempt(String id) {
        Optional<DeadLetter> found = this.store.find(id);
        if (found.isEmpty() && this.calls.isRunning(id)) {
            return inProgress(id);
        }
        if (found.isEmpty()) {
            return RedriveResult.notRun(id, Outcome.NOT_FOUND, "No dead letter has the id " + id, DeadLetterState.NONE);
        }
        DeadLetter deadLetter = found.get();
        Invocation invocation;
        try {
            invocation = invocation(deadLetter);
        }
        catch (StoredArguments.UnreadableException ex) {
            return RedriveResult.notRun(id, Outcome.UNREADABLE,
                    "Dead letter of " + deadLetter.method() + " cannot be re-driven: " + ex.getMessage(),
                    DeadLetterState.KEPT);
        }
        Optional<DeadLetterClaim> claim = this.store.claim(id, this.lease);
        if (claim.isEmpty()) {
            return inProgress(id);
        }
        return run(claim.get(), invocation, System.nanoTime());
    }

    private static RedriveResult inProgress(String id) {
        return RedriveResult.notRun(id, Outcome.IN_PROGRESS,
                "Dead letter " + id + " is being re-driven, or was deleted, by another caller", DeadLetterState.NONE);
    }

    private Invocation invocation(DeadLetter deadLetter) {
        List<ResilientMethods.Declared> candidates = this.methods.declared(deadLetter.method())
            .stream()
            .filter((declared) -> valueParameterCount(declared.method()) == deadLetter.arguments().size())
            .toList();
        if (candidates.isEmpty()) {
            throw new StoredArguments.UnreadableException("no annotated method " + deadLetter.method() + " with "
                    + deadLetter.arguments().size() + " parameters exists any more");
        }
        if (candidates.size() > 1) {
            throw new StoredArguments.UnreadableException(
                    candidates.size() + " annotated methods are named " + deadLetter.method() + " with "
                            + deadLetter.arguments().size() + " parameters; the letter does not say which");
        }
        ResilientMethods.Declared declared = candidates.get(0);
        if (this.callerScopedKeys && AnnotatedElementUtils.hasAnnotation(declared.method(), Idempotent.class)) {
            throw new StoredArguments.UnreadableException("its idempotency keys are scoped by caller "
                    + "(IdempotencyScopeResolver), the letter does not hold the first caller's scope, and a re-drive "
                    + "under another scope would not find that call's key and could do its work twice");
        }
        Object bean;
        try {
            bean = this.beans.getBean(declared.beanName());
        }
        catch (BeansException ex) {
            throw new StoredArguments.UnreadableException(
                    "bean '" + declared.beanName() + "' is not available (" + ex.getClass().getSimpleName() + ")");
        }
        Class<?> beanClass = AopUtils.getTargetClass(bean);
        Method invocable;
        try {
            invocable = AopUtils.selectInvocableMethod(declared.method(), bean.getClass());
        }
        catch (IllegalStateException ex) {
            throw new StoredArguments.UnreadableException("bean '" + declared.beanName()
                    + "' is a proxy that does not expose the method (a JDK proxy exposes its interfaces' methods)");
        }
        @Nullable Object[] arguments = this.arguments.read(deadLetter.arguments(), declared.method(), beanClass);
        if (AnnotatedElementUtils.hasAnnotation(declared.method(), Async.class)
                || AnnotatedElementUtils.hasAnnotation(beanClass, Async.class)) {
            checkAsyncRerun(declared.method(), arguments);
        }
        return new Invocation(bean, invocable, arguments);
    }

    /**
     * Returns how many arguments a call of a method carries: those of a Kotlin
     * {@code suspend} function without the trailing {@code Continuation}.
     */
    private static int valueParameterCount(Method method) {
        return method.getParameterCount() - (KotlinDetector.isSuspendingFunction(method) ? 1 : 0);
    }

    /**
     * Refuses the re-drive of an {@code @Async} method whose re-run could not be told
     * from another caller's call: it starts on the executor's thread, where only its
     * argument objects tell it apart, and a {@code void} one cannot be waited for.
     */
    private static void checkAsyncRerun(Method method, @Nullable Object[] arguments) {
        if (method.getReturnType() == void.class) {
            throw new StoredArguments.UnreadableException(
                    "it is an @Async void method: its re-run cannot be waited for, nor its outcome known");
        }
        if (!RedrivenCalls.isDistinctive(arguments)) {
            throw new StoredArguments.UnreadableException("it is an @Async method whose arguments are all numbers, "
                    + "booleans, characters or enums: its re-run, which starts on another thread, cannot be told from "
                    + "another caller's call");
        }
    }

    private RedriveResult run(DeadLetterClaim claim, Invocation invocation, long claimedAt) {
        DeadLetter deadLetter = claim.deadLetter();
        RedrivenCalls.Capture capture = this.calls.start(deadLetter, invocation.arguments());
        Throwable failure = null;
        try {
            invocation.call(this.lease, claimedAt);
        }
        catch (Throwable ex) {
            failure = ex;
            if (ex instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
        finally {
            this.calls.end(capture);
        }
        ExecutionResult<?> result = capture.result();
        if (failure == null && result != null && !result.isSuccess()) {
            Throwable error = result.error();
            failure = (error != null) ? error : new IllegalStateException("the re-run ended " + result.status());
        }
        String status = (result != null) ? result.status().name() : null;
        Integer attempts = (result != null) ? result.attempts() : null;
        if (failure == null && capture.fallbackAnswered()) {
            Object fallback = (result != null) ? result.metadata().get(ExecutionResult.FALLBACK_NAME) : null;
            return new RedriveResult(
                    deadLetter.id(), Outcome.FAILURE, status, attempts, null, "a fallback answered the re-driven call"
                            + ((fallback != null) ? " (" + fallback + ")" : "") + ": its work was not done",
                    release(claim));
        }
        if (failure == null) {
            return succeeded(claim, (status != null) ? status : "SUCCESS", attempts);
        }
        String message = DeadLetterText.withoutUrlCredentials(failure.getMessage());
        return new RedriveResult(deadLetter.id(), Outcome.FAILURE, status, attempts, failure.getClass().getName(),
                message, release(claim));
    }

    private static RedriveResult succeeded(DeadLetterClaim claim, String status, @Nullable Integer attempts) {
        try {
            endWithoutInterrupt(claim::complete);
            return new RedriveResult(claim.deadLetter().id(), Outcome.SUCCESS, status, attempts, null, null,
                    DeadLetterState.DELETED);
        }
        catch (RuntimeException ex) {
            return new RedriveResult(claim.deadLetter().id(), Outcome.SUCCESS, status, attempts, null,
                    "the call did its work, but the store failed to delete the dead letter ("
                            + ex.getClass().getSimpleName()
                            + "): if it is still listed, delete it, or a later re-drive runs the call again",
                    DeadLetterState.UNKNOWN);
        }
    }

    /**
     * Ends a claim with the thread's interrupt flag clear, and sets it again after: a
     * store refuses to wait for its reply on an interrupted thread, and a claim left
     * unended would hold its letter for the whole lease.
     */
    private static void endWithoutInterrupt(Runnable end) {
        boolean interrupted = Thread.interrupted();
        try {
            end.run();
        }
        finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static DeadLetterState release(DeadLetterClaim claim) {
        try {
            endWithoutInterrupt(claim::release);
            return DeadLetterState.KEPT;
        }
        catch (RuntimeException ex) {
            logger.error("Dead letter " + claim.deadLetter().id() + " of '" + claim.deadLetter().name()
                    + "' may be lost: its re-drive failed and the store failed to write it back", ex);
            return DeadLetterState.UNKNOWN;
        }
    }

    private record Invocation(Object bean, Method method, @Nullable Object[] arguments) {

        /**
         * Calls the method, and waits for an asynchronous one until the lease, counted
         * from the claim, ends: past it, the claim runs out and another re-drive may
         * start, so the call is cancelled.
         */
        void call(Duration lease, long claimedAt) throws Throwable {
            ReflectionUtils.makeAccessible(this.method);
            Object returned;
            try {
                returned = KotlinDetector.isSuspendingFunction(this.method)
                        ? SuspendingInvocation.invoke(this.method, this.bean, this.arguments)
                        : this.method.invoke(this.bean, this.arguments);
            }
            catch (InvocationTargetException ex) {
                throw ex.getTargetException();
            }
            returned = subscribed(returned);
            if (returned instanceof CompletionStage<?> stage) {
                CompletableFuture<?> future = stage.toCompletableFuture();
                try {
                    long left = Durations.toNanos(lease) - (System.nanoTime() - claimedAt);
                    future.get(Math.max(0, left), TimeUnit.NANOSECONDS);
                }
                catch (ExecutionException | CompletionException ex) {
                    throw (ex.getCause() != null) ? ex.getCause() : ex;
                }
                catch (TimeoutException ex) {
                    future.cancel(true);
                    throw new TimeoutException("the re-driven call did not complete within the re-drive lease ("
                            + Durations.format(lease) + ", resilience.dead-letter.redrive-lease) and was cancelled");
                }
                catch (InterruptedException ex) {
                    future.cancel(true);
                    throw ex;
                }
            }
            if (returned instanceof ExecutionResult<?> envelope) {
                envelope.getOrThrow();
            }
        }

        /**
         * Subscribes to the {@code Mono} or {@code Flux} a method returned, whose call
         * runs only once subscribed, through Spring's adapters so that Reactor stays
         * optional.
         * @return the future of the end of its stream, which cancelling disposes, or what
         * the method returned when it is no publisher
         */
        private static @Nullable Object subscribed(@Nullable Object returned) {
            if (returned == null || returned instanceof CompletionStage<?>) {
                return returned;
            }
            ReactiveAdapter publisher = ReactiveAdapterRegistry.getSharedInstance().getAdapter(returned.getClass());
            return (publisher != null) ? PublisherCompletion.of(publisher.toPublisher(returned)) : returned;
        }

    }

    /**
     * Invokes a Kotlin {@code suspend} function through the bean's proxy as Spring
     * invokes one, into a cold {@code Mono} of its value; kept apart so that Kotlin stays
     * optional.
     */
    private static final class SuspendingInvocation {

        static Object invoke(Method method, Object bean, @Nullable Object[] arguments) {
            return CoroutinesUtils.invokeSuspendingFunction(method, bean, arguments);
        }

    }

}
