package dev.resilience.redis;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConnection;

/**
 * The connection factory of a driver without a reactive API, such as Jedis, over another
 * factory: each command of a store then runs on a connection of its own. Its next
 * connection can be held back, as a busy pool does, and the connections given back are
 * counted.
 */
final class BlockingConnectionFactory implements RedisConnectionFactory {

    private final RedisConnectionFactory delegate;

    private final AtomicInteger closed = new AtomicInteger();

    private final AtomicReference<CountDownLatch @Nullable []> hold = new AtomicReference<>();

    BlockingConnectionFactory(RedisConnectionFactory delegate) {
        this.delegate = delegate;
    }

    /**
     * Holds the next connection asked for until {@code release} is counted down, after
     * counting {@code held} down.
     */
    void holdNext(CountDownLatch held, CountDownLatch release) {
        this.hold.set(new CountDownLatch[] { held, release });
    }

    /**
     * Returns how many connections were given back.
     */
    AtomicInteger closed() {
        return this.closed;
    }

    @Override
    public boolean getConvertPipelineAndTxResults() {
        return this.delegate.getConvertPipelineAndTxResults();
    }

    @Override
    public RedisConnection getConnection() {
        CountDownLatch[] latches = this.hold.getAndSet(null);
        if (latches != null) {
            latches[0].countDown();
            try {
                latches[1].await(30, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        RedisConnection connection = this.delegate.getConnection();
        return (RedisConnection) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { RedisConnection.class }, (proxy, method, args) -> {
                    try {
                        return method.invoke(connection, args);
                    }
                    catch (InvocationTargetException ex) {
                        throw ex.getTargetException();
                    }
                    finally {
                        if (method.getName().equals("close")) {
                            this.closed.incrementAndGet();
                        }
                    }
                });
    }

    @Override
    public RedisClusterConnection getClusterConnection() {
        return this.delegate.getClusterConnection();
    }

    @Override
    public RedisSentinelConnection getSentinelConnection() {
        return this.delegate.getSentinelConnection();
    }

    @Override
    public @Nullable DataAccessException translateExceptionIfPossible(RuntimeException ex) {
        return this.delegate.translateExceptionIfPossible(ex);
    }

}
