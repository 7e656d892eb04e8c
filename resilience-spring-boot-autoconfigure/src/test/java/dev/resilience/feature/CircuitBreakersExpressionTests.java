package dev.resilience.feature;

import dev.resilience.autoconfigure.FingerprintSecret;
import dev.resilience.autoconfigure.ResilienceAutoConfiguration;
import dev.resilience.core.circuitbreaker.CircuitBreakerState;
import dev.resilience.registry.ResilienceRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.StandardEvaluationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The auto-configured {@code circuitBreakers} bean, asked through SpEL as an
 * application's expressions ask it: {@code @circuitBreakers.allows('price-oracle')}.
 */
class CircuitBreakersExpressionTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withPropertyValues(FingerprintSecret.PROPERTY,
                "resilience.circuit-breaker.instances.price-oracle.minimum-calls=4")
        .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class));

    @Test
    void expressionAnswersWhetherTheNamedBreakerAllowsCalls() {
        this.contextRunner.run((context) -> {
            assertThat(context).hasBean(CircuitBreakers.BEAN_NAME);
            assertThat(evaluate(context, "@circuitBreakers.allows('price-oracle')")).isEqualTo(true);
            assertThat(evaluate(context, "@circuitBreakers.state('price-oracle')"))
                .isEqualTo(CircuitBreakerState.CLOSED);

            context.getBean(ResilienceRegistry.class)
                .findCircuitBreaker("price-oracle")
                .orElseThrow()
                .transitionTo(CircuitBreakerState.FORCED_OPEN);
            assertThat(evaluate(context, "@circuitBreakers.allows('price-oracle')")).isEqualTo(false);
            assertThat(evaluate(context, "!@circuitBreakers.allows('price-oracle') ? 'greyed out' : 'on'"))
                .isEqualTo("greyed out");
        });
    }

    @Test
    void expressionNamingNoBreakerFailsWithTheNamesThatExist() {
        this.contextRunner.run((context) -> assertThatIllegalArgumentException()
            .isThrownBy(() -> evaluate(context, "@circuitBreakers.allows('price-orcale')"))
            .withMessage("No circuit breaker is named 'price-orcale'; the circuit breakers are [price-oracle]"));
    }

    @Test
    void whenUserDefinesCircuitBreakersThenAutoConfiguredOneBacksOff() {
        this.contextRunner.withUserConfiguration(UserCircuitBreakers.class)
            .run((context) -> assertThat(context).hasSingleBean(CircuitBreakers.class)
                .hasBean("userCircuitBreakers")
                .doesNotHaveBean(CircuitBreakers.BEAN_NAME));
    }

    @Configuration(proxyBeanMethods = false)
    static class UserCircuitBreakers {

        @Bean
        CircuitBreakers userCircuitBreakers(ResilienceRegistry registry) {
            return new CircuitBreakers(registry);
        }

    }

    private static Object evaluate(ApplicationContext context, String expression) {
        StandardEvaluationContext evaluation = new StandardEvaluationContext();
        evaluation.setBeanResolver(new BeanFactoryResolver(context));
        return new SpelExpressionParser().parseExpression(expression).getValue(evaluation);
    }

}
