package dev.resilience.aop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @Async} hands a call to an executor before {@code @Idempotent} sees it, so the
 * caller's scope would be resolved on the executor's thread, where the caller's security
 * context is not: with a scope resolver, an {@code @Async} idempotent method fails the
 * start instead of letting one caller receive another's replay.
 */
class AsyncCallerScopeTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                TaskExecutionAutoConfiguration.class, ResilienceAutoConfiguration.class))
        .withUserConfiguration(AsyncConfiguration.class)
        .withBean(VirtualTimeSource.class);

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void asyncIdempotentMethodFailsTheStartSayingWhy() {
        this.contextRunner.withBean(AsyncCharges.class).run((context) -> {
            assertThat(context).hasFailed();
            assertThat(FailureAnalyses.describe(context.getStartupFailure())).contains("AsyncCharges#charge", "@Async",
                    "CompletableFuture.supplyAsync");
        });
    }

    @Test
    void idempotentMethodOfAnAsyncClassFailsTheStart() {
        this.contextRunner.withBean(AsyncClassCharges.class).run((context) -> {
            assertThat(context).hasFailed();
            assertThat(FailureAnalyses.describe(context.getStartupFailure())).contains("AsyncClassCharges#charge",
                    "@Async");
        });
    }

    @Test
    void withoutAScopeResolverAnAsyncIdempotentMethodStartsAndReplays() {
        this.contextRunner.withBean(AsyncCharges.class)
            .withBean(IdempotencyScopeResolver.class, () -> IdempotencyScopeResolver.NONE)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                AsyncCharges charges = context.getBean(AsyncCharges.class);
                assertThat(charges.charge("k-1").join()).isEqualTo(charges.charge("k-1").join());
            });
    }

    @Test
    void callerThreadFutureKeepsEachCallersScope() {
        this.contextRunner.withBean(FutureCharges.class).run((context) -> {
            FutureCharges charges = context.getBean(FutureCharges.class);
            as("alice");
            String alice = charges.charge("k-1").join();
            as("mallory");
            String mallory = charges.charge("k-1").join();

            assertThat(mallory).isNotEqualTo(alice);
            assertThat(charges.runs()).isEqualTo(2);
        });
    }

    private static void as(String name) {
        SecurityContextHolder.getContext()
            .setAuthentication(
                    UsernamePasswordAuthenticationToken.authenticated(name, "n/a", AuthorityUtils.NO_AUTHORITIES));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAsync
    static class AsyncConfiguration {

    }

    static class AsyncCharges {

        private final AtomicInteger runs = new AtomicInteger();

        @Async
        @Idempotent(key = "#key")
        public CompletableFuture<String> charge(String key) {
            return CompletableFuture.completedFuture("charge-" + this.runs.incrementAndGet());
        }

    }

    @Async
    static class AsyncClassCharges {

        @Idempotent(key = "#key")
        public CompletableFuture<String> charge(String key) {
            return CompletableFuture.completedFuture("charge");
        }

    }

    static class FutureCharges {

        private final AtomicInteger runs = new AtomicInteger();

        @Idempotent(key = "#key")
        public CompletableFuture<String> charge(String key) {
            return CompletableFuture.supplyAsync(() -> "charge-" + this.runs.incrementAndGet());
        }

        public int runs() {
            return this.runs.get();
        }

    }

}
