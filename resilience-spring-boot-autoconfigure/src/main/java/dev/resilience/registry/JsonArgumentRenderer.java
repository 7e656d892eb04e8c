package dev.resilience.registry;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.log.LogMessage;

/**
 * Renders arguments as JSON, so that dead letters show them as data and equal arguments give
 * equal idempotency fingerprints on every instance of an application, whatever their
 * {@code toString()}. An argument Jackson cannot write is rendered as its type name,
 * {@code <com.example.Type>}, never with {@code toString()}, whose identity hash would make
 * two equal calls differ; a WARN names each such type once. Thread-safe.
 */
public final class JsonArgumentRenderer implements ArgumentRenderer {

    private static final org.apache.commons.logging.Log logger = org.apache.commons.logging.LogFactory
        .getLog(JsonArgumentRenderer.class);

    private final JsonMapper mapper;

    private final Set<String> unwritableTypes = ConcurrentHashMap.newKeySet();

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
        catch (RuntimeException ex) {
            String type = (argument != null) ? argument.getClass().getName() : "null";
            if (this.unwritableTypes.add(type)) {
                logger.warn(LogMessage.format("Arguments of type %s cannot be written as JSON (%s): idempotency "
                        + "fingerprints and dead letters show them as their type name, so two of them never tell "
                        + "calls apart. Give the type properties Jackson can write, or say what identifies a call "
                        + "with @Idempotent(fingerprint).", type, ex.getClass().getSimpleName()));
            }
            return "<" + type + ">";
        }
    }
}
