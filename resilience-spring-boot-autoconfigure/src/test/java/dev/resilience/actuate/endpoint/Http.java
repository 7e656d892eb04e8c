package dev.resilience.actuate.endpoint;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/**
 * Real HTTP calls to the application under test, answering every status instead of
 * throwing.
 */
final class Http {

    private final RestClient client;

    Http(int port) {
        this.client = RestClient.builder().baseUrl("http://localhost:" + port).build();
    }

    ResponseEntity<String> get(String path) {
        return this.client.get().uri(path).retrieve().onStatus((status) -> true, (request, response) -> {
        }).toEntity(String.class);
    }

    ResponseEntity<String> post(String path, String json) {
        return this.client.post()
            .uri(path)
            .contentType(MediaType.APPLICATION_JSON)
            .body(json)
            .retrieve()
            .onStatus((status) -> true, (request, response) -> {
            })
            .toEntity(String.class);
    }

    ResponseEntity<String> post(String path) {
        return this.client.post()
            .uri(path)
            .contentType(MediaType.APPLICATION_JSON)
            .retrieve()
            .onStatus((status) -> true, (request, response) -> {
            })
            .toEntity(String.class);
    }

    ResponseEntity<String> delete(String path) {
        return this.client.delete().uri(path).retrieve().onStatus((status) -> true, (request, response) -> {
        }).toEntity(String.class);
    }

}
