package dev.resilience.registry;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders arguments as JSON, so that dead letters show them as data and equal arguments give
 * equal idempotency fingerprints on every instance of an application, whatever their
 * {@code toString()}. An argument Jackson cannot write is rendered with
 * {@link String#valueOf(Object)}.
 */
public final class JsonArgumentRenderer implements ArgumentRenderer {

    private final JsonMapper mapper;

    /**
     * Creates a renderer.
     * @param mapper the mapper that writes the arguments
     */
    public JsonArgumentRenderer(JsonMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    public String render(@Nullable Object argument) {
        try {
            return this.mapper.writeValueAsString(argument);
        }
        catch (JacksonException | IllegalArgumentException ex) {
            return String.valueOf(argument);
        }
    }
}
