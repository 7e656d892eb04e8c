package dev.resilience.redis;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.resilience.core.ratelimiter.RateLimiter;
import dev.resilience.core.ratelimiter.RateLimiterConfig;
import dev.resilience.core.time.VirtualTimeSource;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

/**
 * Review finding on {@link RedisRateLimiterStore} with a Redis it has not connected to
 * yet and whose connection cannot be made: Redis is frozen ({@code SIGSTOP}) with an
 * accept queue of one, filled, so that the kernel drops the client's connection attempt
 * as it does for a host that is down, and the client waits its connect timeout (here 30
 * seconds).
 */
class RedisRateLimiterUnreachableReviewTests {

    private static final Duration STORE_TIMEOUT = Duration.ofMillis(250);

    private static final Duration BOUND = Duration.ofSeconds(3);

    @RegisterExtension
    static final RedisServer redis = new RedisServer("--tcp-backlog", "1");

    private final List<SocketChannel> queued = new ArrayList<>();

    private final LettuceConnectionFactory connections = new LettuceConnectionFactory(
            new RedisStandaloneConfiguration("127.0.0.1", redis.port()),
            LettuceClientConfiguration.builder()
                .commandTimeout(Duration.ofSeconds(60))
                .clientOptions(ClientOptions.builder()
                    .socketOptions(SocketOptions.builder().connectTimeout(Duration.ofSeconds(30)).build())
                    .build())
                .build());

    {
        this.connections.afterPropertiesSet();
        this.connections.start();
    }

    @AfterEach
    void thawAndClose() throws IOException {
        for (SocketChannel channel : this.queued) {
            channel.close();
        }
        redis.resume();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> "+PONG".equals(redis.command("PING")));
        this.connections.destroy();
    }

    /**
     * The reactive client connects on the first command, on the thread that sends it: the
     * permit's thread waited the client's whole connect timeout, whatever the store
     * timeout, and so did every later permit while the connection could not be made. Each
     * permit waits the store timeout at most, and is then refused as on-store-error says.
     */
    @Test
    void aConnectionThatCannotBeMadeHoldsAPermitNoLongerThanTheStoreTimeout() throws IOException {
        RedisRateLimiterStore store = new RedisRateLimiterStore(new StringRedisTemplate(this.connections),
                "shop:ratelimit:", STORE_TIMEOUT, RedisRateLimiterStore.OnStoreError.REJECT, new VirtualTimeSource(),
                null);
        RateLimiterConfig config = RateLimiterConfig.builder().limit(2).period(Duration.ofSeconds(1)).build();
        RateLimiter limiter = RateLimiter.of("unreachable", config, new VirtualTimeSource(),
                store.permits("unreachable", config));
        redis.pause();
        fillTheAcceptQueue();

        long first = assertTimeoutPreemptively(BOUND, limiter::tryAcquire);
        long second = assertTimeoutPreemptively(BOUND, limiter::tryAcquire);

        assertThat(first).as("refused with one interval").isEqualTo(Duration.ofMillis(500).toNanos());
        assertThat(second).isEqualTo(Duration.ofMillis(500).toNanos());
        assertThat(limiter.sharedPermits().storeErrors()).isEqualTo(2);
    }

    private void fillTheAcceptQueue() throws IOException {
        for (int i = 0; i < 4; i++) {
            SocketChannel channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.connect(new InetSocketAddress("127.0.0.1", redis.port()));
            this.queued.add(channel);
        }
        await().pollDelay(Duration.ofMillis(200)).until(() -> true);
    }

}
