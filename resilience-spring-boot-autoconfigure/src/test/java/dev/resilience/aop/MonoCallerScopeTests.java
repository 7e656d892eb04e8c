package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionListener;
import dev.resilience.core.ExecutionResult;
import dev.resilience.core.idempotency.ClaimResult;
import dev.resilience.core.idempotency.IdempotencyOutcome;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import dev.resilience.core.idempotency.IdempotencyPolicy;
import dev.resilience.core.idempotency.InMemoryIdempotencyStore;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The caller's scope of a call of a method returning {@code Mono} is read from the
 * subscriber's Reactor context: with Spring Security, the principal of
 * {@link ReactiveSecurityContextHolder}, so that two users sending the same idempotency
 * key each get an entry of their own, and neither is served the other's last good value.
 */
class MonoCallerScopeTests {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class))
        .withPropertyValues("resilience.async.executor=callerRunsExecutor")
        .withBean("callerRunsExecutor", Executor.class, () -> Runnable::run)
        .withBean(VirtualTimeSource.class)
        .withBean(InMemoryIdempotencyStore.class, () -> new InMemoryIdempotencyStore(new VirtualTimeSource()))
        .withBean(ScopedPayments.class);

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void twoUsersWithTheSameKeyGetEntriesOfTheirOwnAndNeitherIsReplayedTheOthersValue() {
        this.contextRunner.run((context) -> {
            ScopedPayments payments = context.getBean(ScopedPayments.class);

            StepVerifier.create(payments.pay("k-1").contextWrite(as("alice")))
                .expectNext("receipt-1")
                .expectComplete()
                .verify(BOUND);
            StepVerifier.create(payments.pay("k-1").contextWrite(as("bob")))
                .expectNext("receipt-2")
                .expectComplete()
                .verify(BOUND);
            StepVerifier.create(payments.pay("k-1").contextWrite(as("alice")))
                .expectNext("receipt-1")
                .expectComplete()
                .verify(BOUND);
            StepVerifier.create(payments.pay("k-1").contextWrite(as("bob")))
                .expectNext("receipt-2")
                .expectComplete()
                .verify(BOUND);

            assertThat(payments.calls()).isEqualTo(2);
            assertThat(held(context, "alice", "k-1")).isTrue();
            assertThat(held(context, "bob", "k-1")).isTrue();
            assertThat(held(context, "", "k-1")).as("no unscoped entry").isFalse();
        });
    }

    @Test
    void subscriberWithoutASecurityContextInTheReactorContextIsScopedByTheSubscribingThreadsPrincipal() {
        this.contextRunner.run((context) -> {
            ScopedPayments payments = context.getBean(ScopedPayments.class);
            onThread("alice");
            StepVerifier.create(payments.pay("k-1")).expectNext("receipt-1").expectComplete().verify(BOUND);
            onThread("bob");
            StepVerifier.create(payments.pay("k-1")).expectNext("receipt-2").expectComplete().verify(BOUND);

            assertThat(held(context, "alice", "k-1")).isTrue();
            assertThat(held(context, "bob", "k-1")).isTrue();
        });
    }

    @Test
    void usersAreNeverServedEachOthersLastGoodValue() {
        this.contextRunner.run((context) -> {
            ScopedPayments payments = context.getBean(ScopedPayments.class);
            StepVerifier.create(payments.balance("acct").contextWrite(as("alice")))
                .expectNext("balance-1")
                .expectComplete()
                .verify(BOUND);
            payments.down();

            StepVerifier.create(payments.balance("acct").contextWrite(as("bob")))
                .expectError(IOException.class)
                .verify(BOUND);
            StepVerifier.create(payments.balance("acct").contextWrite(as("alice")))
                .expectNext("balance-1")
                .expectComplete()
                .verify(BOUND);

            assertThat(payments.calls()).isEqualTo(3);
            assertThat(context.getBean(ResilienceRegistry.class).statistics("mono-balance").fallbacks("lastGood", true))
                .isOne();
        });
    }

    @Test
    void applicationsReactiveResolverScopesTheKeysByWhatTheSubscriberPutInTheContext() {
        this.contextRunner
            .withBean(ReactiveIdempotencyScopeResolver.class,
                    () -> () -> Mono.deferContextual((context) -> Mono.justOrEmpty(context.getOrEmpty("tenant"))))
            .run((context) -> {
                ScopedPayments payments = context.getBean(ScopedPayments.class);

                StepVerifier.create(payments.pay("k-1").contextWrite(Context.of("tenant", "acme")))
                    .expectNext("receipt-1")
                    .expectComplete()
                    .verify(BOUND);
                StepVerifier.create(payments.pay("k-1").contextWrite(Context.of("tenant", "globex")))
                    .expectNext("receipt-2")
                    .expectComplete()
                    .verify(BOUND);
                StepVerifier.create(payments.pay("k-1").contextWrite(Context.of("tenant", "acme")))
                    .expectNext("receipt-1")
                    .expectComplete()
                    .verify(BOUND);

                assertThat(payments.calls()).isEqualTo(2);
                assertThat(held(context, "acme", "k-1")).isTrue();
                assertThat(held(context, "globex", "k-1")).isTrue();
            });
    }

    @Test
    void resolverThatFailsFailsTheIdempotentCallWithoutCallingTheMethod() {
        this.contextRunner
            .withBean(ReactiveIdempotencyScopeResolver.class,
                    () -> () -> Mono.error(new IllegalStateException("no tenant")))
            .run((context) -> {
                ScopedPayments payments = context.getBean(ScopedPayments.class);

                StepVerifier.create(payments.pay("k-1"))
                    .expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(IdempotencyKeyException.class)
                        .hasMessageContaining("its scope resolver threw IllegalStateException"))
                    .verify(BOUND);

                assertThat(payments.calls()).isZero();
            });
    }

    @Test
    void disposingASubscriptionWhoseResolverNeverAnswersCancelsTheResolverAndStartsNoCall() {
        AtomicInteger resolverSubscriptions = new AtomicInteger();
        AtomicInteger resolverCancellations = new AtomicInteger();
        this.contextRunner
            .withBean(ReactiveIdempotencyScopeResolver.class,
                    () -> () -> Mono.<String>never()
                        .doOnSubscribe((subscription) -> resolverSubscriptions.incrementAndGet())
                        .doOnCancel(resolverCancellations::incrementAndGet))
            .withBean(CallResults.class)
            .run((context) -> {
                ScopedPayments payments = context.getBean(ScopedPayments.class);

                StepVerifier.create(payments.pay("k-1"))
                    .then(() -> assertThat(resolverSubscriptions).as("the pending resolution").hasValue(1))
                    .thenCancel()
                    .verify(BOUND);

                assertThat(resolverCancellations).hasValue(1);
                assertThat(payments.calls()).isZero();
                assertThat(context.getBean(CallResults.class).all()).as("no call started").isEmpty();
                assertThat(held(context, "", "k-1")).as("no claim taken").isFalse();
            });
    }

    @Test
    void applicationsOwnThreadBoundResolverIsAskedOnTheSubscribingThread() {
        ThreadLocal<String> tenant = new ThreadLocal<>();
        this.contextRunner.withBean(IdempotencyScopeResolver.class, () -> tenant::get).run((context) -> {
            ScopedPayments payments = context.getBean(ScopedPayments.class);
            Mono<String> assembled = payments.pay("k-1");

            tenant.set("acme");
            StepVerifier.create(assembled).expectNext("receipt-1").expectComplete().verify(BOUND);
            tenant.set("globex");
            StepVerifier.create(assembled).expectNext("receipt-2").expectComplete().verify(BOUND);
            tenant.remove();

            assertThat(held(context, "acme", "k-1")).isTrue();
            assertThat(held(context, "globex", "k-1")).isTrue();
        });
    }

    @Test
    void listenerThatACustomizerGivesTheCallHearsItsOutcomeWithTheSubscribersContext() {
        this.contextRunner.run((context) -> {
            List<String> heard = new CopyOnWriteArrayList<>();
            context.getBean(ResilientMethods.class).customizeCalls((call) -> {
                Object subscriber = CallContextCustomizer.subscriberContext(call);
                ExecutionListener own = call.listener();
                return call.withListener(new ExecutionListener() {

                    @Override
                    public void onIdempotency(String name, IdempotencyOutcome outcome) {
                        own.onIdempotency(name, outcome);
                        heard.add(outcome + " for " + ((ContextView) subscriber).getOrDefault("exchange", "none"));
                    }

                    @Override
                    public void onComplete(String name, ExecutionResult<?> result) {
                        own.onComplete(name, result);
                    }

                });
            });
            ScopedPayments payments = context.getBean(ScopedPayments.class);

            StepVerifier.create(payments.pay("k-1").contextWrite(Context.of("exchange", "first")))
                .expectNext("receipt-1")
                .expectComplete()
                .verify(BOUND);
            StepVerifier.create(payments.pay("k-1").contextWrite(Context.of("exchange", "second")))
                .expectNext("receipt-1")
                .expectComplete()
                .verify(BOUND);

            assertThat(heard).containsExactly("EXECUTED for first", "REPLAYED for second");
        });
    }

    private static Context as(String name) {
        return ReactiveSecurityContextHolder.withAuthentication(
                UsernamePasswordAuthenticationToken.authenticated(name, "n/a", AuthorityUtils.NO_AUTHORITIES));
    }

    private static void onThread(String name) {
        SecurityContextHolder.getContext()
            .setAuthentication(
                    UsernamePasswordAuthenticationToken.authenticated(name, "n/a", AuthorityUtils.NO_AUTHORITIES));
    }

    /**
     * Tells whether the store holds an entry for a scope's key of {@code mono-scoped}, by
     * claiming it with another fingerprint: a held key answers a mismatch, a free one is
     * acquired and released again.
     */
    private static boolean held(AssertableApplicationContext context, String scope, String key) {
        InMemoryIdempotencyStore store = context.getBean(InMemoryIdempotencyStore.class);
        String storeKey = IdempotencyPolicy.of("mono-scoped", store).storeKey(scope, key);
        ClaimResult probe = store.claim(storeKey, "probe", Duration.ofMinutes(1));
        if (probe instanceof ClaimResult.Acquired acquired) {
            assertThat(store.release(storeKey, acquired.ownerToken())).isTrue();
            return false;
        }
        assertThat(probe).isInstanceOf(ClaimResult.Mismatch.class);
        return true;
    }

    /**
     * Keeps the account of every call.
     */
    static class CallResults implements ExecutionListener {

        private final List<ExecutionResult<?>> results = new CopyOnWriteArrayList<>();

        @Override
        public void onComplete(String name, ExecutionResult<?> result) {
            this.results.add(result);
        }

        List<ExecutionResult<?>> all() {
            return this.results;
        }

    }

    static class ScopedPayments {

        private final AtomicInteger calls = new AtomicInteger();

        private volatile boolean down;

        int calls() {
            return this.calls.get();
        }

        void down() {
            this.down = true;
        }

        @Idempotent(name = "mono-scoped", key = "#key")
        public Mono<String> pay(String key) {
            return Mono.fromCallable(() -> "receipt-" + this.calls.incrementAndGet());
        }

        @Retryable(value = "mono-balance", maxAttempts = 1)
        @Fallback(lastGood = "1h")
        public Mono<String> balance(String account) {
            int call = this.calls.incrementAndGet();
            return this.down ? Mono.error(new IOException("ledger down")) : Mono.just("balance-" + call);
        }

    }

}
