package dev.resilience.registry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonToken;
import tools.jackson.core.type.WritableTypeId;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationConfig;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.TypeSerializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.ser.ValueSerializerModifier;
import tools.jackson.databind.ser.std.StdSerializer;
import tools.jackson.databind.type.CollectionType;

import org.springframework.core.log.LogMessage;

/**
 * Renders arguments as canonical JSON, so that dead letters show them as data and equal
 * arguments give equal idempotency fingerprints on every instance of an application,
 * whatever their {@code toString()} and whatever order they iterate in.
 *
 * <p>
 * <b>Canonical form.</b> An argument is written by the application's mapper (its modules,
 * naming and views) into a JSON tree, which is then written with the members of every
 * object sorted by name: a map's entries by their key, a bean's or record's properties by
 * their name, at every depth. The elements of a {@link Set} are sorted by their own
 * canonical JSON; lists and arrays keep their order. So an equal {@code LinkedHashMap}
 * filled in another order, a {@code TreeSet} and a {@code LinkedHashSet} of the same
 * elements, or a {@code Set.of} that iterates in another order on another JVM, render
 * alike. The text is compact JSON, readable as it is in a dead letter. It costs a tree of
 * the argument on top of writing it.
 *
 * <p>
 * An argument Jackson cannot write is rendered as its type name,
 * {@code <com.example.Type>}, never with {@code toString()}, whose identity hash would
 * make two equal calls differ; a WARN names each such type once. Thread-safe.
 */
public final class JsonArgumentRenderer implements ArgumentRenderer {

    private static final org.apache.commons.logging.Log logger = org.apache.commons.logging.LogFactory
        .getLog(JsonArgumentRenderer.class);

    private static final JsonMapper sortKeys = JsonMapper.builder()
        .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
        .build();

    private final JsonMapper mapper;

    private final Set<String> unwritableTypes = ConcurrentHashMap.newKeySet();

    /**
     * Creates a renderer.
     * @param mapper the mapper that writes the arguments; the renderer uses a copy of it
     * that writes sets and the members of objects in their canonical order
     */
    public JsonArgumentRenderer(JsonMapper mapper) {
        SimpleModule sortedSets = new SimpleModule("resilience-canonical-sets");
        sortedSets.setSerializerModifier(new SortedSets());
        this.mapper = mapper.rebuild().addModule(sortedSets).enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED).build();
    }

    @Override
    public String render(@Nullable Object argument) {
        try {
            JsonNode tree = this.mapper.valueToTree(argument);
            return this.mapper.writeValueAsString(tree);
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

    /**
     * Writes every {@link Set} through {@link SortedSetSerializer}.
     */
    private static final class SortedSets extends ValueSerializerModifier {

        private static final long serialVersionUID = 1L;

        @Override
        public ValueSerializer<?> modifyCollectionSerializer(SerializationConfig config, CollectionType type,
                BeanDescription.Supplier description, ValueSerializer<?> serializer) {
            return Set.class.isAssignableFrom(type.getRawClass()) ? new SortedSetSerializer() : serializer;
        }

    }

    /**
     * Writes a set as an array of its elements, each written as the mapper writes it, in
     * the order of their canonical JSON.
     */
    @SuppressWarnings("rawtypes")
    private static final class SortedSetSerializer extends StdSerializer<Set> {

        SortedSetSerializer() {
            super(Set.class);
        }

        @Override
        public boolean isEmpty(SerializationContext context, Set set) {
            return set.isEmpty();
        }

        @Override
        public void serialize(Set set, JsonGenerator generator, SerializationContext context) throws JacksonException {
            generator.writeStartArray(set, set.size());
            writeElements(set, generator, context);
            generator.writeEndArray();
        }

        @Override
        public void serializeWithType(Set set, JsonGenerator generator, SerializationContext context,
                TypeSerializer typeSerializer) throws JacksonException {
            WritableTypeId typeId = typeSerializer.writeTypePrefix(generator, context,
                    typeSerializer.typeId(set, JsonToken.START_ARRAY));
            writeElements(set, generator, context);
            typeSerializer.writeTypeSuffix(generator, context, typeId);
        }

        private void writeElements(Set<?> set, JsonGenerator generator, SerializationContext context) {
            List<Element> elements = new ArrayList<>(set.size());
            for (Object element : set) {
                JsonNode node = context.valueToTree(element);
                if (node == null) {
                    node = NullNode.getInstance();
                }
                elements.add(new Element(sortKeys.writeValueAsString(node), node));
            }
            elements.sort(Comparator.comparing(Element::json));
            for (Element element : elements) {
                context.writeTree(generator, element.node());
            }
        }

    }

    private record Element(String json, JsonNode node) {
    }

}
