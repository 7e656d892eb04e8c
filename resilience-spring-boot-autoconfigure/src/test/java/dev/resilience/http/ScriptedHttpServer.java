package dev.resilience.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;

/**
 * A downstream service on one or more random loopback ports that answers with the
 * responses it was scripted with, in order, then with 200 "ok"; it records every request
 * it receives. Its ports share the script and the record, so each port stands for a
 * distinct host of one service.
 */
final class ScriptedHttpServer implements AutoCloseable {

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
        this.script.add(new Reply(status, body, headers));
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
            reply = new Reply(200, "ok", Map.of());
        }
        byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
        reply.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        exchange.getResponseHeaders().add("Content-Type", "text/plain");
        exchange.sendResponseHeaders(reply.status(), (bytes.length == 0) ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    record Reply(int status, String body, Map<String, String> headers) {
    }

    record Received(String method, @Nullable String idempotencyKey, String body) {
    }

}
