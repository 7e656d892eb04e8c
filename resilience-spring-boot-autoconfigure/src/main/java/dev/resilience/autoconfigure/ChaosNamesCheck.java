package dev.resilience.autoconfigure;

import java.util.SortedSet;

import dev.resilience.chaos.ChaosInstances;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;

/**
 * Warns, once the context is refreshed (every annotated method compiled by then), of each
 * name under {@code resilience.chaos.instances} that no protected operation has: its
 * faults are injected nowhere.
 */
final class ChaosNamesCheck implements ApplicationListener<ContextRefreshedEvent> {

    private static final Log logger = LogFactory.getLog(ChaosNamesCheck.class);

    private final ChaosInstances chaos;

    ChaosNamesCheck(ChaosInstances chaos) {
        this.chaos = chaos;
    }

    @Override
    public void onApplicationEvent(ContextRefreshedEvent event) {
        SortedSet<String> unmatched = this.chaos.unmatchedConfiguredNames();
        if (!unmatched.isEmpty()) {
            logger.warn("resilience.chaos.instances names no protected operation for " + unmatched
                    + ": no fault is injected for them; a name is the retry, breaker or idempotency name of an "
                    + "annotated method, else SimpleClassName#method");
        }
    }

}
