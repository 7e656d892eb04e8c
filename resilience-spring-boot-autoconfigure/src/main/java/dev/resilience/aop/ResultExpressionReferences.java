package dev.resilience.aop;

import java.util.Set;
import java.util.TreeSet;

import dev.resilience.feature.CircuitBreakers;
import dev.resilience.registry.InvalidResiliencePolicyException;
import dev.resilience.registry.ResilienceRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.StringLiteral;
import org.springframework.expression.spel.ast.TypeReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.expression.spel.support.StandardTypeLocator;

/**
 * What a result expression refers to beyond {@code #result} and the method's parameters,
 * checked at startup so that no reference is left to fail every call: a function
 * ({@code #isPending(#result)}), which the evaluation context never registers, fails the
 * start; so does a type ({@code T(com.example.Status)}) that cannot be loaded, and a bean
 * ({@code @name}) that the application does not have. The breakers an expression asks
 * {@code @circuitBreakers} about by a literal name ({@code allows('payment')}) are kept,
 * to be checked once every breaker of the application exists. Immutable.
 */
final class ResultExpressionReferences {

    private final String text;

    private final String setting;

    private final String subject;

    private final Set<String> askedBreakers;

    private ResultExpressionReferences(String text, String setting, String subject, Set<String> askedBreakers) {
        this.text = text;
        this.setting = setting;
        this.subject = subject;
        this.askedBreakers = askedBreakers;
    }

    /**
     * Checks the references of a parsed result expression.
     * @param expression the expression
     * @param types where its types are loaded from, as when it is evaluated
     * @param beans the beans it may refer to, or {@code null} for none
     * @param setting the attribute, such as {@code @Retryable(retryOnResult)}
     * @param subject the bean and method, for a failure analysis
     * @return its references, of which the breakers are still to be checked
     * @throws InvalidResiliencePolicyException when it calls a function or refers to a
     * type or a bean that does not exist
     */
    static ResultExpressionReferences check(SpelExpression expression, StandardTypeLocator types,
            @Nullable BeanFactory beans, String setting, String subject) {
        ResultExpressionReferences references = new ResultExpressionReferences(expression.getExpressionString(),
                setting, subject, new TreeSet<>());
        StandardEvaluationContext context = new StandardEvaluationContext();
        context.setTypeLocator(types);
        references.check(expression.getAST(), new ExpressionState(context), beans);
        return references;
    }

    /**
     * Fails when the expression asks {@code @circuitBreakers} about a breaker that does
     * not exist, which would make every call end ERROR.
     * @param registry the registry, holding every breaker of the application
     * @throws InvalidResiliencePolicyException naming the first unknown breaker
     */
    void requireBreakers(ResilienceRegistry registry) {
        for (String name : this.askedBreakers) {
            if (registry.findCircuitBreaker(name).isEmpty()) {
                Set<String> known = registry.circuitBreakers().keySet();
                throw invalid(
                        "it asks @" + CircuitBreakers.BEAN_NAME + " about '" + name
                                + "', and no circuit breaker is named so"
                                + (known.isEmpty() ? "" : "; the circuit breakers are " + known),
                        "Name a circuit breaker of the application, or declare '" + name + "' with @CircuitGuarded(\""
                                + name + "\") or resilience.circuit-breaker.instances." + name + ".");
            }
        }
    }

    private void check(SpelNode node, ExpressionState state, @Nullable BeanFactory beans) {
        if (node instanceof FunctionReference) {
            throw invalid(
                    "it calls the function " + node.toStringAST()
                            + ", and a result expression has no functions to call",
                    "Call a method on #result, a parameter, a bean (@name.method()) or a type "
                            + "(T(com.example.Type).method()) instead.");
        }
        if (node instanceof TypeReference) {
            try {
                node.getValue(state);
            }
            catch (EvaluationException ex) {
                throw invalid("it refers to " + node.toStringAST() + ", a class that cannot be loaded",
                        "Write the fully qualified name of a class on the application's class path.");
            }
        }
        if (node instanceof BeanReference reference) {
            checkBean(reference, beans);
        }
        if (node instanceof CompoundExpression && beans != null) {
            collectAskedBreakers(node, beans);
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            check(node.getChild(i), state, beans);
        }
    }

    private void checkBean(BeanReference reference, @Nullable BeanFactory beans) {
        if (beans == null) {
            throw invalid("it refers to the bean " + reference.toStringAST() + ", and no bean factory resolves it",
                    "Compile the method within an application context, or refer only to #result and parameters.");
        }
        if (!beans.containsBean(reference.getName())) {
            throw invalid("it refers to the bean " + reference.toStringAST() + ", and the application has no bean '"
                    + reference.getName() + "'", "Refer to a bean the application defines, by its name.");
        }
    }

    /** Keeps the names of {@code @circuitBreakers.allows('name')} and the like. */
    private void collectAskedBreakers(SpelNode compound, BeanFactory beans) {
        for (int i = 0; i + 1 < compound.getChildCount(); i++) {
            if (compound.getChild(i) instanceof BeanReference bean
                    && compound.getChild(i + 1) instanceof MethodReference call && call.getChildCount() == 1
                    && call.getChild(0) instanceof StringLiteral literal && beans.containsBean(bean.getName())
                    && beans.isTypeMatch(bean.getName(), CircuitBreakers.class)) {
                this.askedBreakers.add(String.valueOf(literal.getLiteralValue().getValue()));
            }
        }
    }

    private InvalidResiliencePolicyException invalid(String reason, String fix) {
        return new InvalidResiliencePolicyException(this.subject, this.setting, this.text, reason, fix);
    }

}
