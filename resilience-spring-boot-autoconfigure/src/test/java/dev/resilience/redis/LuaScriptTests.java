package dev.resilience.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

class LuaScriptTests {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @Test
    void digestOfEveryScriptIsTheNameRedisGivesIt() {
        LettuceConnectionFactory connections = redis.connectionFactory();
        try (RedisConnection connection = connections.getConnection()) {
            for (String name : List.of("idempotency-claim.lua", "idempotency-complete.lua", "idempotency-release.lua",
                    "deadletter-write.lua", "deadletter-list.lua", "deadletter-delete.lua", "ratelimiter-permit.lua")) {
                LuaScript<Long> script = LuaScript.load(name, Long.class);

                String loaded = connection.scriptingCommands()
                    .scriptLoad(script.getScriptAsString().getBytes(StandardCharsets.UTF_8));

                assertThat(script.getSha1()).as(name).isEqualTo(loaded);
                assertThat(script.getScriptAsString()).as(name).startsWith("-- ");
            }
        }
        finally {
            connections.destroy();
        }
    }

}
