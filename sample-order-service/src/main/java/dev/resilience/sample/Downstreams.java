package dev.resilience.sample;

import java.util.concurrent.atomic.AtomicReference;

import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * The {@link RestClient} that reaches the simulated downstreams over real HTTP. They live
 * in this application, so the client's base URL is {@code http://localhost:<port>}, known
 * once the web server has started on its (possibly random) port.
 */
@Component
public class Downstreams implements ApplicationListener<WebServerInitializedEvent> {

    private final RestClient.Builder builder;

    private final AtomicReference<RestClient> client = new AtomicReference<>();

    /**
     * Creates the holder; the client exists once the server has started.
     * @param builder Spring Boot's builder, with its timeouts and observations
     */
    public Downstreams(RestClient.Builder builder) {
        this.builder = builder;
    }

    /**
     * Builds the client for the port the server started on.
     * @param event the server's start
     */
    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() == null) {
            this.client.set(this.builder.clone().baseUrl("http://localhost:" + event.getWebServer().getPort()).build());
        }
    }

    /**
     * Returns the client.
     * @return the client whose base URL is this application's server
     * @throws IllegalStateException before the web server has started
     */
    public RestClient restClient() {
        RestClient restClient = this.client.get();
        if (restClient == null) {
            throw new IllegalStateException("The downstreams are reachable once the web server has started");
        }
        return restClient;
    }

}
