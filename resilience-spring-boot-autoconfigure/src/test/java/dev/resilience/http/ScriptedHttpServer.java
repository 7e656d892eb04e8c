package dev.resilience.http;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A downstream service on one or more random loopback ports that answers with the
 * responses it was scripted with, in order, then with 200 "ok"; it records every request
 * it receives. Its ports share the script and the record, so each port stands for a
 * distinct host of one service. Registered as a JUnit extension
 * ({@link #registered(int)}), it forgets its script and record before each test and stops
 * after the last.
 */
final class ScriptedHttpServer implements AutoCloseable, BeforeEachCallback, AfterAllCallback {

    private final List<HttpServer> servers = new ArrayList<>();

    private final Queue<Reply> script = new ConcurrentLinkedQueue<>();

    private final List<Received> received = new CopyOnWriteArrayList<>();

    ScriptedHttpServer() throws IOException {
        this(1);
    }

    ScriptedHttpServer(int ports) throws IOException {
        try {
            for (int i = 0; i < ports; i++) {
                HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
                this.servers.add(server);
                server.createContext("/", this::handle);
                server.start();
            }
        }
        catch (IOException ex) {
            close();
            throw ex;
        }
    }

    /**
     * Starts a server for a {@code @RegisterExtension} field.
     */
    static ScriptedHttpServer registered(int ports) {
        try {
            return new ScriptedHttpServer(ports);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        reset();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    int port() {
        return port(0);
    }

    int port(int index) {
        return this.servers.get(index).getAddress().getPort();
    }

    String url() {
        return url(0);
    }

    String url(int index) {
        return "http://127.0.0.1:" + port(index);
    }

    ScriptedHttpServer reply(int status, String body, String... headerPairs) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.put(headerPairs[i], headerPairs[i + 1]);
        }
        this.script.add(new Reply(status, body, headers, null));
        return this;
    }

    /**
     * Scripts a reply that is sent only once the gate opens (at most 30 seconds later),
     * so that a request can be seen in flight.
     */
    ScriptedHttpServer replyWhenOpen(CountDownLatch gate, int status, String body) {
        this.script.add(new Reply(status, body, Map.of(), gate));
        return this;
    }

    ScriptedHttpServer replyAlways(int status, int times) {
        for (int i = 1; i <= times; i++) {
            reply(status, "reply " + i);
        }
        return this;
    }

    List<Received> received() {
        return List.copyOf(this.received);
    }

    void reset() {
        this.script.clear();
        this.received.clear();
    }

    @Override
    public void close() {
        this.servers.forEach((server) -> server.stop(0));
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        this.received.add(new Received(exchange.getRequestMethod(),
                exchange.getRequestHeaders().getFirst("Idempotency-Key"), new String(body, StandardCharsets.UTF_8)));
        Reply reply = this.script.poll();
        if (reply == null) {
            reply = new Reply(200, "ok", Map.of(), null);
        }
        CountDownLatch gate = reply.gate();
        if (gate != null) {
            try {
                gate.await(30, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
        reply.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        exchange.getResponseHeaders().add("Content-Type", "text/plain");
        exchange.sendResponseHeaders(reply.status(), (bytes.length == 0) ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    record Reply(int status, String body, Map<String, String> headers, @Nullable CountDownLatch gate) {
    }

    record Received(String method, @Nullable String idempotencyKey, String body) {
    }

}
