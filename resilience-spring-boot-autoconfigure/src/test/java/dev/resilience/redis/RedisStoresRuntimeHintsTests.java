package dev.resilience.redis;

import java.io.IOException;

import dev.resilience.core.deadletter.DeadLetter;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis stores' hints cover every Lua script they load and the dead letter they keep
 * as JSON, and are registered for AOT processing.
 */
class RedisStoresRuntimeHintsTests {

    private final RuntimeHints hints = new RuntimeHints();

    RedisStoresRuntimeHintsTests() {
        new RedisStoresRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
    }

    @Test
    void isRegisteredInAotFactories() {
        assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
            .hasAtLeastOneElementOfType(RedisStoresRuntimeHints.class);
    }

    @Test
    void everyLuaScriptOfTheStoresIsAResource() throws IOException {
        Resource[] scripts = new PathMatchingResourcePatternResolver()
            .getResources("classpath*:" + RedisStoresRuntimeHints.LUA_SCRIPTS);

        assertThat(scripts).hasSizeGreaterThanOrEqualTo(13)
            .allSatisfy((script) -> assertThat(this.hints).matches(
                    RuntimeHintsPredicates.resource().forResource("dev/resilience/redis/" + script.getFilename())));
        assertThat(this.hints)
            .matches(RuntimeHintsPredicates.resource().forResource("dev/resilience/redis/idempotency-claim.lua"));
    }

    @Test
    void otherResourcesAreNotHinted() {
        assertThat(this.hints)
            .doesNotMatch(RuntimeHintsPredicates.resource().forResource("dev/resilience/redis/other.txt"));
    }

    @Test
    void deadLetterIsBoundForJackson() {
        assertThat(this.hints).matches(RuntimeHintsPredicates.reflection().onMethodInvocation(DeadLetter.class, "id"))
            .matches(RuntimeHintsPredicates.reflection().onMethodInvocation(DeadLetter.class, "errorClass"))
            .matches(RuntimeHintsPredicates.reflection().onType(DeadLetter.class));
    }

}
