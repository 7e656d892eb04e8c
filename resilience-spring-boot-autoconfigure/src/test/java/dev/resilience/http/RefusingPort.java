package dev.resilience.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A port of the loopback address that refuses every connection for as long as it is held:
 * a socket is bound to it and never listens, so no other process (a Redis server of
 * another test fork) can take it between the moment it is chosen and the attempts that
 * expect a refusal, as a port found free and closed again could be.
 */
final class RefusingPort implements AutoCloseable {

    private final Socket holder = new Socket();

    RefusingPort() throws IOException {
        this.holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    /**
     * Returns the base URL of a server that would be on this port.
     * @return {@code http://127.0.0.1:} and the port
     */
    String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    int port() {
        return this.holder.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        this.holder.close();
    }

}
