package dev.resilience.aop;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.CarriedContext;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.context.integration.Slf4jThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import org.springframework.core.OverridingClassLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The caller's context is captured with Micrometer's context-propagation when it is on
 * the class path, and nothing is captured when it is not; a snapshot that cannot be
 * restored leaves the step to run without it.
 */
class CallerContextsTests {

    @Test
    void withContextPropagationOnTheClassPathCallsCaptureItsSnapshot() {
        assertThat(CallerContexts.detect(getClass().getClassLoader())).isInstanceOf(ContextSnapshots.class);
    }

    @Test
    void withoutContextPropagationCallsCaptureNothing() {
        ClassLoader withoutIt = new OverridingClassLoader(getClass().getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.startsWith(ContextSnapshotFactory.class.getPackageName() + ".")) {
                    throw new ClassNotFoundException(name);
                }
                return super.loadClass(name, resolve);
            }
        };

        CallerContexts contexts = CallerContexts.detect(withoutIt);

        assertThat(contexts).isSameAs(CallerContexts.NONE);
        assertThat(contexts.capture(null)).isSameAs(CarriedContext.NONE);
    }

    @Test
    void valueRestoredBeforeAnotherAccessorFailsToRestoreIsPutBackAfterTheStep() {
        ContextRegistry.getInstance().registerThreadLocalAccessor(new Slf4jThreadLocalAccessor("requestId"));
        ContextRegistry.getInstance().registerThreadLocalAccessor("failing-accessor", () -> "captured", (value) -> {
            throw new IllegalStateException("cannot restore");
        }, () -> {
        });
        try {
            MDC.put("requestId", "r-1");
            CarriedContext carried = new ContextSnapshots().capture(null);
            MDC.remove("requestId");
            List<@Nullable String> seen = new ArrayList<>();

            carried.around(() -> seen.add(MDC.get("requestId"))).run();

            assertThat(seen).containsExactly("r-1");
            assertThat(MDC.get("requestId")).as("the thread's MDC after the step").isNull();
        }
        finally {
            ContextRegistry.getInstance().removeThreadLocalAccessor("failing-accessor");
            ContextRegistry.getInstance().removeThreadLocalAccessor(Slf4jThreadLocalAccessor.KEY);
            MDC.clear();
        }
    }

    @Test
    void valueOfAnAccessorRegisteredBeforeOneThatFailsToPutItsOwnBackIsPutBackAfterTheStep() {
        AtomicInteger sets = new AtomicInteger();
        ContextRegistry.getInstance().registerThreadLocalAccessor(new Slf4jThreadLocalAccessor("requestId"));
        ContextRegistry.getInstance().registerThreadLocalAccessor("failing-accessor", () -> "captured", (value) -> {
            if (sets.incrementAndGet() > 1) {
                throw new IllegalStateException("cannot put back");
            }
        }, () -> {
        });
        try {
            MDC.put("requestId", "r-1");
            CarriedContext carried = new ContextSnapshots().capture(null);
            MDC.remove("requestId");
            List<@Nullable String> seen = new ArrayList<>();

            carried.around(() -> seen.add(MDC.get("requestId"))).run();

            assertThat(seen).containsExactly("r-1");
            assertThat(MDC.get("requestId")).as("the thread's MDC after the step").isNull();
        }
        finally {
            ContextRegistry.getInstance().removeThreadLocalAccessor("failing-accessor");
            ContextRegistry.getInstance().removeThreadLocalAccessor(Slf4jThreadLocalAccessor.KEY);
            MDC.clear();
        }
    }

    @Test
    void stepOfACallWhoseContextCannotBeRestoredRunsOnceWithoutIt() {
        ContextRegistry.getInstance().registerThreadLocalAccessor("failing-accessor", () -> "captured", (value) -> {
            throw new IllegalStateException("cannot restore");
        }, () -> {
        });
        try {
            CarriedContext carried = new ContextSnapshots().capture(null);
            AtomicInteger runs = new AtomicInteger();

            carried.around(runs::incrementAndGet).run();

            assertThat(runs).hasValue(1);
        }
        finally {
            ContextRegistry.getInstance().removeThreadLocalAccessor("failing-accessor");
        }
    }

}
