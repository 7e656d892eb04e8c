package dev.resilience;

import java.util.Set;

import dev.resilience.cloud.autoconfigure.ResilienceCloudCircuitBreakerAutoConfiguration;
import org.junit.jupiter.api.Test;

/**
 * The shape of this module's main code ({@link PackageStructure}): no cycle between its
 * packages, no source file over 400 lines without a reason at its top.
 */
class PackageStructureTests {

    @Test
    void noCycleBetweenPackages() throws Exception {
        PackageStructure.assertNoCycleBetweenPackages(ResilienceCloudCircuitBreakerAutoConfiguration.class, Set.of());
    }

    @Test
    void noSourceFileOverTheBoundWithoutAReasonAtItsTop() throws Exception {
        PackageStructure.assertNoSourceFileOverTheBoundWithoutAReason();
    }

}
