package dev.resilience.aop;

import java.util.List;

import dev.resilience.annotation.CircuitGuarded;
import dev.resilience.annotation.Fallback;
import dev.resilience.annotation.Idempotent;
import dev.resilience.annotation.Retryable;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.aot.BeanRegistrationCode;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * The processor registers, for the annotated methods of a bean, the fallback methods as
 * invocable and the stored values' types for Jackson binding; a bean without an annotated
 * method contributes nothing.
 */
class ResilientMethodsAotProcessorTests {

    private static final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

    @Test
    void isRegisteredInAotFactories() {
        assertThat(AotServices.factories().load(BeanRegistrationAotProcessor.class))
            .hasAtLeastOneElementOfType(ResilientMethodsAotProcessor.class);
    }

    @Test
    void fallbackMethodsOfEveryOverloadAreInvocable() throws NoSuchMethodException {
        RuntimeHints hints = hintsOf(Payments.class);

        assertThat(hints)
            .matches(reflection
                .onMethodInvocation(Payments.class.getDeclaredMethod("payWithBackup", String.class, Card.class)))
            .matches(reflection.onMethodInvocation(
                    Payments.class.getDeclaredMethod("payWithBackup", String.class, Card.class, Throwable.class)))
            .matches(reflection.onMethodInvocation(Payments.class, "defer"))
            .matches(reflection.onMethodInvocation(Payments.class, "cachedQuote"));
    }

    @Test
    void annotatedMethodsAreInvocableForTheirReDriveAndOthersAreNot() {
        RuntimeHints hints = hintsOf(Payments.class);

        assertThat(hints).matches(reflection.onMethodInvocation(Payments.class, "pay"))
            .matches(reflection.onMethodInvocation(Payments.class, "quote"))
            .matches(reflection.onType(Payments.class))
            .doesNotMatch(reflection.onMethodInvocation(Payments.class, "unrelated"));
    }

    @Test
    void returnTypesOfIdempotentAndLastGoodMethodsAreBoundGenericsIncluded() {
        RuntimeHints hints = hintsOf(Payments.class);

        assertThat(hints).matches(reflection.onMethodInvocation(Receipt.class, "chargeId"))
            .matches(reflection.onMethodInvocation(Quote.class, "cents"));
    }

    @Test
    void parameterTypesOfRetryableMethodsAreBoundForTheirDeadLetters() {
        RuntimeHints hints = hintsOf(Payments.class);

        assertThat(hints).matches(reflection.onMethodInvocation(Card.class, "token"));
    }

    @Test
    void typesOfMethodsThatStoreNothingAreNotBound() {
        RuntimeHints hints = hintsOf(Payments.class);

        assertThat(hints).doesNotMatch(reflection.onType(Unstored.class));
    }

    @Test
    void beanWithoutAnnotatedMethodsContributesNothing() {
        assertThat(contribution(Plain.class)).isNull();
    }

    @Test
    void classLevelFallbackNamesItsMethodsForThePublicMethods() {
        RuntimeHints hints = hintsOf(ClassLevel.class);

        assertThat(hints).matches(reflection.onMethodInvocation(ClassLevel.class, "fallback"))
            .matches(reflection.onMethodInvocation(ClassLevel.class, "read"));
    }

    @Test
    void annotatedPublicMethodInheritedFromASuperclassAndItsFallbackAreInvocable() {
        RuntimeHints hints = hintsOf(InheritingPayments.class);

        assertThat(hints).matches(reflection.onMethodInvocation(BasePayments.class, "pay"))
            .matches(reflection.onMethodInvocation(BasePayments.class, "payLater"))
            .matches(reflection.onMethodInvocation(Card.class, "token"));
    }

    @Test
    void storedTypesOfAGenericSuperclassAreBoundAsTheBeanClassResolvesThem() {
        RuntimeHints hints = hintsOf(CardPayments.class);

        assertThat(hints).matches(reflection.onMethodInvocation(Receipt.class, "chargeId"))
            .matches(reflection.onMethodInvocation(Card.class, "token"));
    }

    @Test
    void storedValueOfAMonoIsBoundAsTheValueItHolds() {
        RuntimeHints hints = hintsOf(ReactivePayments.class);

        assertThat(hints).matches(reflection.onMethodInvocation(Receipt.class, "chargeId"));
    }

    @Test
    void factoryBeanIsReadAsTheClassOfTheObjectItMakes() {
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        beanFactory.registerBeanDefinition("payments", new RootBeanDefinition(PaymentsFactoryBean.class));

        RuntimeHints hints = hintsOf(RegisteredBean.of(beanFactory, "payments"));

        assertThat(hints).matches(reflection.onMethodInvocation(Payments.class, "defer"))
            .matches(reflection.onMethodInvocation(Receipt.class, "chargeId"));
    }

    private static RuntimeHints hintsOf(Class<?> beanClass) {
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        beanFactory.registerBeanDefinition("bean", new RootBeanDefinition(beanClass));
        return hintsOf(RegisteredBean.of(beanFactory, "bean"));
    }

    private static RuntimeHints hintsOf(RegisteredBean bean) {
        BeanRegistrationAotContribution contribution = new ResilientMethodsAotProcessor().processAheadOfTime(bean);
        assertThat(contribution).isNotNull();
        DefaultGenerationContext context = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get("com.example", "Application")), new InMemoryGeneratedFiles());
        contribution.applyTo(context, mock(BeanRegistrationCode.class));
        return context.getRuntimeHints();
    }

    private static @Nullable BeanRegistrationAotContribution contribution(Class<?> beanClass) {
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        beanFactory.registerBeanDefinition("bean", new RootBeanDefinition(beanClass));
        return new ResilientMethodsAotProcessor().processAheadOfTime(RegisteredBean.of(beanFactory, "bean"));
    }

    record Receipt(String chargeId) {
    }

    record Quote(long cents) {
    }

    record Card(String token) {
    }

    record Unstored(String value) {
    }

    static class Payments {

        @Idempotent(key = "#key")
        @Retryable("payment")
        @Fallback({ "payWithBackup", "defer" })
        public Receipt pay(String key, Card card) {
            return new Receipt("ch_1");
        }

        Receipt payWithBackup(String key, Card card) {
            return new Receipt("ch_2");
        }

        Receipt payWithBackup(String key, Card card, Throwable failure) {
            return new Receipt("ch_3");
        }

        private Receipt defer(String key, Card card) {
            return new Receipt("deferred");
        }

        @CircuitGuarded("oracle")
        @Fallback(value = "cachedQuote", lastGood = "1h")
        public List<Quote> quote(Unstored symbol) {
            return List.of(new Quote(1));
        }

        List<Quote> cachedQuote(Unstored symbol) {
            return List.of();
        }

        public String unrelated() {
            return "";
        }

    }

    @Fallback("fallback")
    static class ClassLevel {

        public String read() {
            return "value";
        }

        String fallback() {
            return "fallback";
        }

    }

    static class BasePayments {

        @Retryable("payment")
        @Fallback("payLater")
        public Receipt pay(String key, Card card) {
            return new Receipt("ch_1");
        }

        Receipt payLater(String key, Card card) {
            return new Receipt("later");
        }

    }

    static class InheritingPayments extends BasePayments {

    }

    abstract static class GenericPayments<R, C> {

        @Idempotent(key = "#key")
        @Retryable("payment")
        public R pay(String key, C card) {
            return charge(card);
        }

        abstract R charge(C card);

    }

    static class CardPayments extends GenericPayments<Receipt, Card> {

        @Override
        Receipt charge(Card card) {
            return new Receipt("ch_1");
        }

    }

    static class ReactivePayments {

        @Idempotent(key = "#key")
        public Mono<Receipt> pay(String key) {
            return Mono.just(new Receipt("ch_1"));
        }

    }

    static class PaymentsFactoryBean implements FactoryBean<Payments> {

        @Override
        public Payments getObject() {
            return new Payments();
        }

        @Override
        public Class<?> getObjectType() {
            return Payments.class;
        }

    }

    static class Plain {

        public String read() {
            return "value";
        }

    }

}
