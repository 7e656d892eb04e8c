package dev.resilience.autoconfigure;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

/**
 * Renders a start failure as Spring Boot would report it: with the first failure analyzer
 * registered in {@code META-INF/spring.factories} that recognizes it. Analyzers whose
 * optional dependencies are missing are skipped, as Spring Boot skips them.
 */
public final class FailureAnalyses {

    private FailureAnalyses() {
    }

    /**
     * Describes a start failure with the analyzer that recognizes it.
     * @param failure the failure
     * @return the description and the action
     */
    public static String describe(Throwable failure) {
        ArgumentResolver arguments = ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
            .and(Environment.class, new StandardEnvironment());
        for (FailureAnalyzer analyzer : SpringFactoriesLoader.forDefaultResourceLocation()
            .load(FailureAnalyzer.class, arguments, FailureHandler.handleMessage((message, ex) -> {
            }))) {
            FailureAnalysis analysis = analyzer.analyze(failure);
            if (analysis != null) {
                return analysis.getDescription() + System.lineSeparator() + "Action: " + analysis.getAction();
            }
        }
        throw new AssertionError("No failure analyzer recognizes " + failure);
    }

}
