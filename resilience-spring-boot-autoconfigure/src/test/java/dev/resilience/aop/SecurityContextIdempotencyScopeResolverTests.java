package dev.resilience.aop;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.idempotency.IdempotencyKeyException;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The thread-bound scopes of Spring Security: the principal authenticated on the calling
 * thread, and a failure, rather than no scope, when nobody is authenticated on a thread
 * Reactor marks non-blocking, where a reactive caller's security context never is: an
 * idempotent method not returning {@code Mono} called there fails instead of letting
 * every caller share its keys.
 */
class SecurityContextIdempotencyScopeResolverTests {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final SecurityContextIdempotencyScopeResolver resolver = new SecurityContextIdempotencyScopeResolver();

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void principalAuthenticatedOnTheThreadIsTheScope() {
        as("alice");

        assertThat(this.resolver.resolveScope()).isEqualTo("alice");
    }

    @Test
    void nobodyAuthenticatedOnAnOrdinaryThreadIsNoScope() {
        assertThat(this.resolver.resolveScope()).isNull();
    }

    @Test
    void nobodyAuthenticatedOnANonBlockingThreadFailsSayingWhy() {
        StepVerifier.create(Mono.fromCallable(this.resolver::resolveScope).subscribeOn(Schedulers.parallel()))
            .expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a non-blocking Reactor thread")
                .hasMessageContaining("Return Mono from the method"))
            .verify(BOUND);
    }

    @Test
    void principalAuthenticatedOnANonBlockingThreadIsStillTheScope() {
        StepVerifier.create(Mono.fromCallable(() -> {
            as("alice");
            try {
                return this.resolver.resolveScope();
            }
            finally {
                SecurityContextHolder.clearContext();
            }
        }).subscribeOn(Schedulers.parallel())).expectNext("alice").expectComplete().verify(BOUND);
    }

    @Test
    void idempotentFutureMethodCalledOnANonBlockingThreadFailsWithoutRunning() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                    ResilienceAutoConfiguration.class))
            .withBean(VirtualTimeSource.class)
            .withBean(FutureCharges.class)
            .run((context) -> {
                FutureCharges charges = context.getBean(FutureCharges.class);

                StepVerifier
                    .create(Mono.fromFuture(() -> charges.charge("k-1"), false).subscribeOn(Schedulers.parallel()))
                    .expectError(IdempotencyKeyException.class)
                    .verify(BOUND);
                assertThat(charges.charge("k-1").join()).as("on the test's own thread").isEqualTo("charge-1");

                assertThat(charges.runs()).isOne();
            });
    }

    private static void as(String name) {
        SecurityContextHolder.getContext()
            .setAuthentication(
                    UsernamePasswordAuthenticationToken.authenticated(name, "n/a", AuthorityUtils.NO_AUTHORITIES));
    }

    static class FutureCharges {

        private final AtomicInteger runs = new AtomicInteger();

        @Idempotent(key = "#key")
        public CompletableFuture<String> charge(String key) {
            return CompletableFuture.completedFuture("charge-" + this.runs.incrementAndGet());
        }

        int runs() {
            return this.runs.get();
        }

    }

}
