package dev.resilience.test;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.context.ApplicationContext;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * A JUnit Jupiter extension that runs the {@link ResilienceReset} of the test's Spring
 * application context before each test method, before the test's own {@code @BeforeEach}
 * methods. {@link AutoConfigureResilienceTest} registers it; a test that wants the resets
 * without the virtual clock or the rest of that annotation registers it alone, with
 * {@code @ExtendWith(ResilienceResetExtension.class)} on a Spring test class
 * ({@code @SpringBootTest}, a slice, or {@code @SpringJUnitConfig}). The reset is the
 * context's {@link ResilienceReset} bean when it has one, else one made over the context.
 */
public final class ResilienceResetExtension implements BeforeEachCallback {

    /**
     * Creates the extension; JUnit does.
     */
    public ResilienceResetExtension() {
    }

    /**
     * Resets the resilience state of the test's application context, loading the context
     * if the Spring extension has not yet.
     * @param context the test's extension context
     */
    @Override
    public void beforeEach(ExtensionContext context) {
        ApplicationContext applicationContext = SpringExtension.getApplicationContext(context);
        applicationContext.getBeanProvider(ResilienceReset.class)
            .getIfAvailable(() -> ResilienceReset.of(applicationContext))
            .reset();
    }

}
