package dev.resilience.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.awaitility.Awaitility.await;

/**
 * A real {@code redis-server} process on a free port of 127.0.0.1, without persistence,
 * as a JUnit extension: started before a test class, flushed and running before each
 * test, stopped after the class. Tests stop, restart (on the same port, empty), pause and
 * resume it to play outages.
 *
 * <p>
 * The binary is the one that the {@code com.github.codemonstur:embedded-redis} test
 * dependency ships for this platform, copied to a temporary file; where it ships none,
 * the {@code redis-server} on the path (Debian: {@code apt-get install -y redis-server}).
 */
public final class RedisServer implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    private static final Duration STARTUP = Duration.ofSeconds(10);

    private final int port = freePort();

    private final List<String> arguments;

    private Path binary;

    private Process process;

    private boolean paused;

    private LettuceConnectionFactory templateConnections;

    private StringRedisTemplate template;

    /**
     * A server with Redis's default settings.
     */
    public RedisServer() {
        this(new String[0]);
    }

    /**
     * A server with more command-line settings, such as
     * {@code --maxmemory-policy volatile-lru}.
     * @param arguments the settings, passed on every start
     */
    public RedisServer(String... arguments) {
        this.arguments = List.of(arguments);
    }

    /**
     * Returns the port the server listens on, the same across restarts.
     */
    public int port() {
        return this.port;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (this.paused) {
            resume();
        }
        if (this.process == null || !this.process.isAlive()) {
            start();
        }
        flush();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (this.paused) {
            resume();
        }
        if (this.templateConnections != null) {
            this.templateConnections.destroy();
            this.templateConnections = null;
            this.template = null;
        }
        stop();
    }

    /**
     * Starts the server, empty, and waits until it answers.
     */
    public void start() {
        try {
            if (this.binary == null) {
                this.binary = binary();
            }
            List<String> command = new ArrayList<>(List.of(this.binary.toString(), "--port",
                    Integer.toString(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"));
            command.addAll(this.arguments);
            this.process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        await().atMost(STARTUP).ignoreExceptions().until(() -> "+PONG".equals(command("PING")));
    }

    /**
     * Stops the server, as an outage, and waits until its port refuses connections.
     */
    public void stop() {
        if (this.process == null) {
            return;
        }
        this.process.destroy();
        try {
            if (!this.process.waitFor(5, TimeUnit.SECONDS)) {
                this.process.destroyForcibly().waitFor();
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        this.process = null;
    }

    /**
     * Stops the server and starts it again on the same port; it comes back empty.
     */
    public void restart() {
        stop();
        start();
    }

    /**
     * Freezes the server ({@code SIGSTOP}): connections stay open but nothing is
     * answered.
     */
    public void pause() {
        signal("-STOP");
        this.paused = true;
    }

    /**
     * Thaws a paused server ({@code SIGCONT}).
     */
    public void resume() {
        signal("-CONT");
        this.paused = false;
    }

    /**
     * Removes every key.
     */
    public void flush() {
        command("FLUSHALL");
    }

    /**
     * Sends one inline command and returns the first line of the reply.
     */
    public String command(String command) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", this.port), 1000);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write((command + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private void signal(String signal) {
        try {
            int exit = new ProcessBuilder("kill", signal, Long.toString(this.process.pid())).start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException("kill " + signal + " failed with " + exit);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private static Path binary() throws IOException {
        String arch = System.getProperty("os.arch");
        String resource = switch (arch) {
            case "amd64", "x86_64" -> "/redis-server-6.2.6-v5-linux-amd64";
            case "aarch64", "arm64" -> "/redis-server-6.2.7-linux-arm64";
            default -> null;
        };
        InputStream shipped = (resource != null && System.getProperty("os.name").startsWith("Linux"))
                ? RedisServer.class.getResourceAsStream(resource) : null;
        if (shipped == null) {
            return Path.of("redis-server");
        }
        Path binary = Files.createTempFile("redis-server", "");
        binary.toFile().deleteOnExit();
        try (shipped) {
            Files.copy(shipped, binary, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwx------"));
        return binary;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Returns a started Lettuce connection factory to this server with a 500 ms command
     * timeout, connected as it starts, so that no store's first command waits for the
     * connection; the caller destroys it.
     */
    public LettuceConnectionFactory connectionFactory() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", this.port),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofMillis(500)).build());
        factory.setEagerInitialization(true);
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /**
     * Returns a template on this server, made on first use over a
     * {@link #connectionFactory()} that the server destroys after the test class.
     */
    public StringRedisTemplate template() {
        if (this.template == null) {
            this.templateConnections = connectionFactory();
            this.template = new StringRedisTemplate(this.templateConnections);
        }
        return this.template;
    }

    /**
     * The properties that point a Spring Boot application at this server, with timeouts
     * short enough for outage tests.
     */
    public List<String> springProperties() {
        return List.of("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + this.port,
                "spring.data.redis.timeout=500ms", "spring.data.redis.connect-timeout=500ms");
    }

}
