package dev.resilience.redrive;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.DeadLetterRedriveAutoConfiguration;
import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.autoconfigure.ResilienceMetricsAutoConfiguration;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.core.time.TimeSource;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.redrive.RedriveResult.DeadLetterState;
import dev.resilience.redrive.RedriveResult.Outcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Review findings on {@link DeadLetterRedrive}: letters lost and work not done.
 */
class DeadLetterRedriveReviewTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, JacksonAutoConfiguration.class,
                ResilienceAutoConfiguration.class, ResilienceMetricsAutoConfiguration.class,
                DeadLetterRedriveAutoConfiguration.class))
        .withPropertyValues("resilience.retry.defaults.jitter=none", "resilience.retry.instances.pay.max-attempts=2")
        .withBean(TimeSource.class, VirtualTimeSource::new)
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(Bank.class, Bank::new)
        .withBean(Payments.class);

    @Test
    void anotherCallersEqualArgumentFailureWhileARedriveRunsKeepsItsOwnLetter() {
        this.contextRunner.run((context) -> {
            Payments payments = context.getBean(Payments.class);
            Bank bank = context.getBean(Bank.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            bank.down.set(true);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> payments.pay("acct-1", 100));
            DeadLetter original = onlyLetter(context);
            CountDownLatch gate = new CountDownLatch(1);
            bank.entered = new CountDownLatch(1);
            bank.gate = gate;
            DeadLetterRedrive redrive = context.getBean(DeadLetterRedrive.class);
            ExecutorService threads = Executors.newSingleThreadExecutor();
            try {
                Future<RedriveResult> redriven = threads.submit(() -> redrive.redrive(original.id()));
                assertThat(bank.entered.await(10, TimeUnit.SECONDS)).isTrue();
                bank.gate = null;
                // A second, distinct payment of the same amount to the same account, by
                // the end user, fails while the operator's re-drive runs
                assertThatExceptionOfType(IOException.class).isThrownBy(() -> payments.pay("acct-1", 100));
                gate.countDown();
                assertThat(redriven.get(10, TimeUnit.SECONDS).outcome()).isEqualTo(Outcome.FAILURE);
            }
            finally {
                threads.shutdownNow();
            }
            assertThat(store.list(10)).as("two undone payments, one letter each").hasSize(2);
        });
    }

    @Test
    void redriveServedTheLastGoodValueIsNotASuccessAndKeepsTheLetter() {
        this.contextRunner.run((context) -> {
            Payments payments = context.getBean(Payments.class);
            Bank bank = context.getBean(Bank.class);
            DeadLetterStore store = context.getBean(DeadLetterStore.class);
            bank.down.set(true);
            assertThatExceptionOfType(IOException.class).isThrownBy(() -> payments.transfer("acct-2", 50));
            DeadLetter letter = onlyLetter(context);
            bank.down.set(false);
            assertThat(payments.transfer("acct-2", 50)).isEqualTo("transferred:acct-2:50");
            bank.down.set(true);
            bank.calls.clear();

            RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

            assertThat(bank.calls).as("the transfer ran and failed every time").hasSize(2);
            assertThat(result.outcome()).as("the re-run's work was not done; it was served a stale value")
                .isNotEqualTo(Outcome.SUCCESS);
            assertThat(result.deadLetter()).isEqualTo(DeadLetterState.KEPT);
            assertThat(store.find(letter.id())).contains(letter);
        });
    }

    @Test
    void operatorsRedriveOfAPaymentTheUserSinceCompletedUnderItsKeyDoesNotPayTwice() {
        this.contextRunner.withPropertyValues(FingerprintSecret.PROPERTY).run((context) -> {
            Payments payments = context.getBean(Payments.class);
            Bank bank = context.getBean(Bank.class);
            try {
                as("alice");
                bank.down.set(true);
                assertThatExceptionOfType(IOException.class).isThrownBy(() -> payments.settle("inv-7", 4200));
                DeadLetter letter = onlyLetter(context);
                bank.down.set(false);
                assertThat(payments.settle("inv-7", 4200)).isEqualTo("settled:inv-7:4200");
                bank.calls.clear();
                as("operator");

                RedriveResult result = context.getBean(DeadLetterRedrive.class).redrive(letter.id());

                assertThat(result.outcome()).as("refused while keys are scoped by caller")
                    .isEqualTo(Outcome.UNREADABLE);
                assertThat(bank.calls).as("invoice inv-7 was paid by alice's retry; the re-drive pays it again")
                    .isEmpty();
            }
            finally {
                SecurityContextHolder.clearContext();
            }
        });
    }

    private static void as(String user) {
        SecurityContextHolder.getContext()
            .setAuthentication(
                    UsernamePasswordAuthenticationToken.authenticated(user, "n/a", AuthorityUtils.NO_AUTHORITIES));
    }

    private static DeadLetter onlyLetter(AssertableApplicationContext context) {
        List<DeadLetter> letters = context.getBean(DeadLetterStore.class).list(10);
        assertThat(letters).hasSize(1);
        return letters.get(0);
    }

    static class Bank {

        final AtomicBoolean down = new AtomicBoolean();

        final List<String> calls = new CopyOnWriteArrayList<>();

        volatile CountDownLatch entered = new CountDownLatch(1);

        volatile @Nullable CountDownLatch gate;

    }

    static class Payments {

        private final Bank bank;

        Payments(Bank bank) {
            this.bank = bank;
        }

        @Retryable("pay")
        public String pay(String account, long cents) throws IOException, InterruptedException {
            this.bank.calls.add(account + ":" + cents);
            this.bank.entered.countDown();
            CountDownLatch gate = this.bank.gate;
            if (gate != null) {
                gate.await(10, TimeUnit.SECONDS);
            }
            if (this.bank.down.get()) {
                throw new IOException("bank down");
            }
            return "paid:" + account + ":" + cents;
        }

        @Retryable("pay")
        @Idempotent(key = "#invoice")
        public String settle(String invoice, long cents) throws IOException {
            this.bank.calls.add(invoice + ":" + cents);
            if (this.bank.down.get()) {
                throw new IOException("bank down");
            }
            return "settled:" + invoice + ":" + cents;
        }

        @Retryable("pay")
        @Fallback(lastGood = "1h")
        public String transfer(String account, long cents) throws IOException {
            this.bank.calls.add(account + ":" + cents);
            if (this.bank.down.get()) {
                throw new IOException("bank down");
            }
            return "transferred:" + account + ":" + cents;
        }

    }

}
