package dev.resilience.aop;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import dev.resilience.autoconfigure.FailureAnalyses;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.circuitbreaker.CircuitBreaker;
import dev.resilience.core.retry.RetryPolicy;
import dev.resilience.core.time.VirtualTimeSource;
import dev.resilience.registry.ResilienceRegistry;
import dev.resilience.template.ResilienceTemplate;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Instance names shared between methods: a shared name is a choice the annotations make
 * alike, never an accident of two methods' default names.
 */
class InstanceNameConflictsTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class))
        .withBean(VirtualTimeSource.class);

    @Test
    void breakerNamedByTwoAnnotationsWithDifferentIgnoreOnFailsTheStartNamingBothMethods() {
        this.contextRunner.withBean("orderGateway", OrderGateway.class)
            .withBean("refundGateway", RefundGateway.class)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .containsAnyOf("Invalid resilience setting of bean 'refundGateway', method RefundGateway#refund:",
                        "Invalid resilience setting of bean 'orderGateway', method OrderGateway#charge:")
                .contains("Setting: @CircuitGuarded(ignoreOn)")
                .contains("breaker 'gateway' is also configured by bean '")
                .contains("OrderGateway#charge", "RefundGateway#refund")
                .contains("{IllegalArgumentException}", "{}")
                .contains("Action: Give both annotations the same ignoreOn, or set "
                        + "resilience.circuit-breaker.instances.gateway.ignore-on and leave ignoreOn out of both "
                        + "annotations."));
    }

    @Test
    void retryInstanceNamedByTwoAnnotationsWithDifferentMaxAttemptsFailsTheStart() {
        this.contextRunner.withBean("orderGateway", OrderGateway.class)
            .withBean("quoteGateway", QuoteGateway.class)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("Setting: @Retryable(maxAttempts)")
                .contains("retry instance 'gateway' is also configured by bean '")
                .contains("OrderGateway#charge", "QuoteGateway#quote")
                .contains("resilience.retry.instances.gateway.max-attempts"));
    }

    @Test
    void identicalAnnotationsShareOneBreakerAndRetryInstance() {
        this.contextRunner.withBean("orderGateway", OrderGateway.class)
            .withBean("captureGateway", CaptureGateway.class)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                ResilienceRegistry registry = context.getBean(ResilienceRegistry.class);
                assertThat(registry.circuitBreakers()).containsOnlyKeys("gateway");
                assertThat(registry.retryPolicies()).containsOnlyKeys("gateway");
            });
    }

    @Test
    void durationsAndJitterWrittenOtherwiseConfigureOneRetryInstanceAlike() {
        this.contextRunner.withBean("ledger", SecondsLedger.class)
            .withBean("journal", MillisecondsJournal.class)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                RetryPolicy policy = context.getBean(ResilienceRegistry.class).retryPolicies().get("books");
                assertThat(policy.backoff().delay()).isEqualTo(Duration.ofSeconds(1));
                assertThat(policy.backoff().maxDelay()).isEqualTo(Duration.ofSeconds(2));
            });
    }

    @Test
    void retryInstanceNamedByTwoAnnotationsWithDifferentDelaysFailsTheStartShowingTheDelayAsWritten() {
        this.contextRunner.withBean("ledger", SecondsLedger.class)
            .withBean("journal", SlowerJournal.class)
            .run((context) -> assertThat(describe(context.getStartupFailure())).contains("Setting: @Retryable(delay)")
                .contains("retry instance 'books' is also configured by bean '")
                .containsAnyOf("with delay = 1s", "with delay = 1500ms")
                .contains("resilience.retry.instances.books.delay"));
    }

    @Test
    void durationThatDoesNotParseFailsTheStartAsNotADuration() {
        this.contextRunner.withBean("ledger", SecondsLedger.class)
            .withBean("journal", UnreadableJournal.class)
            .run((context) -> assertThat(describe(context.getStartupFailure())).contains("Setting: @Retryable(delay)")
                .contains("'one second' is not a duration"));
    }

    @Test
    void jitterThatDoesNotParseInTheSecondAnnotationOfANameFailsTheStartThoughOnlyTheFirstIsResolved() {
        this.contextRunner.withBean("ledger", SecondsLedger.class)
            .withBean("journal", FuzzyJournal.class)
            .run((context) -> assertThat(describe(context.getStartupFailure())).contains("Setting: @Retryable(jitter)")
                .contains("Invalid jitter 'fuzzy'")
                .contains("Write full as bean 'ledger'")
                .contains("resilience.retry.instances.books.jitter"));
    }

    @Test
    void instancesNamedOnlyInYamlOrByTheTemplateNeverConflictWithAnnotations() {
        this.contextRunner.withBean("orderGateway", OrderGateway.class)
            .withPropertyValues("resilience.retry.instances.gateway.max-attempts=5",
                    "resilience.circuit-breaker.instances.gateway.minimum-calls=7")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                ResilienceTemplate template = context.getBean(ResilienceTemplate.class);
                assertThat(template.execute("gateway", "gateway", () -> "ok").status())
                    .isEqualTo(ExecutionStatus.SUCCESS);
                CircuitBreaker breaker = context.getBean(ResilienceRegistry.class)
                    .findCircuitBreaker("gateway")
                    .orElseThrow();
                assertThat(breaker.config().ignoreOn()).containsExactly(IllegalArgumentException.class);
                assertThat(breaker.config().minimumCalls()).isEqualTo(7);
            });
    }

    @Test
    void twoClassesOfOneSimpleNameLeavingTheIdempotencyNameEmptyFailTheStart() {
        this.contextRunner.withBean("v1OrderController", V1.OrderController.class)
            .withBean("v2OrderController", V2.OrderController.class)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("method OrderController#create:")
                .contains("Setting: @Idempotent(name)")
                .contains("Value: \"OrderController#create\"")
                .contains(V1.OrderController.class.getName() + "#create(String, String)")
                .contains(V2.OrderController.class.getName() + "#create(String, String)")
                .contains("both leave their names empty, so both go by 'OrderController#create' and would share "
                        + "every instance and meter of that name")
                .containsAnyOf(
                        "Action: Name the instances of one of the two methods, such as "
                                + "@Idempotent(name = \"V2.OrderController#create\").",
                        "Action: Name the instances of one of the two methods, such as "
                                + "@Idempotent(name = \"V1.OrderController#create\")."));
    }

    @Test
    void twoClassesOfOneSimpleNameLeavingTheBreakerNameEmptyFailTheStart() {
        this.contextRunner.withBean("v1Prices", V1.PriceClient.class)
            .withBean("v2Prices", V2.PriceClient.class)
            .run((context) -> assertThat(describe(context.getStartupFailure()))
                .contains("Setting: @CircuitGuarded(name)")
                .contains("Value: \"PriceClient#price\""));
    }

    @Test
    void overloadsLeavingTheRetryNameEmptyFailTheStart() {
        this.contextRunner.withBean("ledger", OverloadedLedger.class)
            .run((context) -> assertThat(describe(context.getStartupFailure())).contains("Setting: @Retryable(name)")
                .contains("Value: \"OverloadedLedger#post\"")
                .contains("Action: Name the instances of one of the two methods, such as @Retryable(name = "));
    }

    @Test
    void oneMethodOnTwoBeansOfTheSameClassIsNotACollision() {
        this.contextRunner.withBean("europeOrders", V1.OrderController.class)
            .withBean("asiaOrders", V1.OrderController.class)
            .withBean("europePrices", V1.PriceClient.class)
            .withBean("asiaPrices", V1.PriceClient.class)
            .run((context) -> assertThat(context).hasNotFailed());
    }

    @Test
    void classesOfOneSimpleNameWithNamedInstancesStart() {
        this.contextRunner.withBean("v1Prices", V1.NamedPriceClient.class)
            .withBean("v2Prices", V2.NamedPriceClient.class)
            .run((context) -> assertThat(context).hasNotFailed());
    }

    private static String describe(Throwable failure) {
        assertThat(failure).as("start failure").isNotNull();
        return FailureAnalyses.describe(failure);
    }

    static class OrderGateway {

        @Retryable(value = "gateway", maxAttempts = 3, retryOn = { IOException.class, TimeoutException.class })
        @CircuitGuarded(value = "gateway", ignoreOn = IllegalArgumentException.class)
        public String charge(String orderId) {
            return orderId;
        }

    }

    static class CaptureGateway {

        @Retryable(name = "gateway", maxAttempts = 3, retryOn = { TimeoutException.class, IOException.class })
        @CircuitGuarded(name = "gateway", ignoreOn = IllegalArgumentException.class)
        public String capture(String orderId) {
            return orderId;
        }

    }

    static class RefundGateway {

        @CircuitGuarded("gateway")
        public String refund(String orderId) {
            return orderId;
        }

    }

    static class QuoteGateway {

        @Retryable(value = "gateway", maxAttempts = 5, retryOn = { IOException.class, TimeoutException.class })
        public String quote(String symbol) {
            return symbol;
        }

    }

    static class SecondsLedger {

        @Retryable(value = "books", delay = "1s", maxDelay = "2s", jitter = "full", retryOn = IOException.class)
        public String post(String entry) {
            return entry;
        }

    }

    static class MillisecondsJournal {

        @Retryable(value = "books", delay = "1000ms", maxDelay = "PT2S", jitter = "FULL",
                retryOn = { IOException.class, IOException.class })
        public String record(String entry) {
            return entry;
        }

    }

    static class SlowerJournal {

        @Retryable(value = "books", delay = "1500ms", maxDelay = "2s", jitter = "full", retryOn = IOException.class)
        public String record(String entry) {
            return entry;
        }

    }

    static class UnreadableJournal {

        @Retryable(value = "books", delay = "one second", maxDelay = "2s", jitter = "full", retryOn = IOException.class)
        public String record(String entry) {
            return entry;
        }

    }

    static class FuzzyJournal {

        @Retryable(value = "books", delay = "1s", maxDelay = "2s", jitter = "fuzzy", retryOn = IOException.class)
        public String record(String entry) {
            return entry;
        }

    }

    static class OverloadedLedger {

        @Retryable
        public String post(String entry) {
            return entry;
        }

        @Retryable
        public String post(String entry, long amount) {
            return entry + amount;
        }

    }

    static class V1 {

        static class OrderController {

            @Idempotent(key = "#key")
            public String create(String key, String item) {
                return item;
            }

        }

        static class PriceClient {

            @CircuitGuarded
            public String price(String symbol) {
                return symbol;
            }

        }

        static class NamedPriceClient {

            @CircuitGuarded("v1-prices")
            @Retryable("v1-prices")
            public String price(String symbol) {
                return symbol;
            }

        }

    }

    static class V2 {

        static class OrderController {

            @Idempotent(key = "#key")
            public String create(String key, String item) {
                return item;
            }

        }

        static class PriceClient {

            @CircuitGuarded
            public String price(String symbol) {
                return symbol;
            }

        }

        static class NamedPriceClient {

            @CircuitGuarded("v2-prices")
            @Retryable("v2-prices")
            public String price(String symbol) {
                return symbol;
            }

        }

    }

}
