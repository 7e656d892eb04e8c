package dev.resilience;

import java.util.Set;

import dev.resilience.test.ResilienceTestAutoConfiguration;
import org.junit.jupiter.api.Test;

/**
 * The shape of this module's main code ({@link PackageStructure}): no cycle between its
 * packages but the known ones, no source file over 400 lines without a reason at its top.
 */
class PackageStructureTests {

    /**
     * Cycles that are known and not yet removed, each written as the failure names it.
     */
    private static final Set<String> KNOWN_CYCLES = Set.of();

    @Test
    void noCycleBetweenPackages() throws Exception {
        PackageStructure.assertNoCycleBetweenPackages(ResilienceTestAutoConfiguration.class, KNOWN_CYCLES);
    }

    @Test
    void noSourceFileOverTheBoundWithoutAReasonAtItsTop() throws Exception {
        PackageStructure.assertNoSourceFileOverTheBoundWithoutAReason();
    }

}
