package dev.resilience.aop;

import java.util.LinkedHashSet;
import java.util.Set;

import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;

/**
 * The variables an {@code @Idempotent} key or fingerprint expression refers to, such as
 * {@code #key} or {@code #p0}: the method parameters it is made of.
 */
public final class SpelVariables {

    private SpelVariables() {
    }

    /**
     * Returns the names of the variables an expression refers to, {@code #root} and
     * {@code #this} left out.
     * @param expression a parsed expression
     * @return the names without their {@code #}, in the order they appear
     */
    public static Set<String> of(SpelExpression expression) {
        Set<String> names = new LinkedHashSet<>();
        collect(expression.getAST(), names);
        return names;
    }

    private static void collect(SpelNode node, Set<String> names) {
        if (node instanceof VariableReference) {
            String name = node.toStringAST().substring(1);
            if (!"root".equals(name) && !"this".equals(name)) {
                names.add(name);
            }
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            collect(node.getChild(i), names);
        }
    }

}
