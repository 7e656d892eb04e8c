package dev.resilience.redis;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonFormat;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationConfig;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.deser.Deserializers;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.jsontype.TypeSerializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.Serializers;
import tools.jackson.databind.ser.std.StdSerializer;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;

/**
 * A Jackson module that writes a {@link ResponseEntity} as its status, headers and body,
 * and reads it back into a {@code ResponseEntity} whose body has the declared type, such
 * as {@code ResponseEntity<Order>}:
 * <pre>{"status":201,"headers":{"Location":["/orders/7"]},"body":{"id":7}}</pre> Jackson
 * cannot rebuild a {@code ResponseEntity} without it. The body is written as a value of
 * the declared body type, as a property of that type would be: a mapper that keeps
 * classes for polymorphic types (as the Redis idempotency store's does) keeps the class
 * of a {@code ResponseEntity<Parcel>}'s body when {@code Parcel} is an interface. The
 * idempotency stores' {@link JsonResultCodec} registers it on its own mapper; it is also
 * offered as a bean, which Spring Boot adds to the application's {@code JsonMapper}.
 *
 * <p>
 * A response written or read by this module never carries credentials: the headers of
 * {@link #CREDENTIAL_HEADERS} ({@code Set-Cookie}, {@code Set-Cookie2},
 * {@code Authorization}, {@code Proxy-Authorization}, {@code WWW-Authenticate},
 * {@code Proxy-Authenticate}) are left out, so a replayed response never hands one
 * caller's session or token to another. Status, body, content headers, {@code Location},
 * {@code ETag} and the application's own headers are kept.
 */
public final class ResponseEntityJacksonModule extends SimpleModule {

    /** The headers never written nor read, compared without regard to case. */
    public static final List<String> CREDENTIAL_HEADERS = List.of(HttpHeaders.SET_COOKIE, "Set-Cookie2",
            HttpHeaders.AUTHORIZATION, HttpHeaders.PROXY_AUTHORIZATION, HttpHeaders.WWW_AUTHENTICATE,
            HttpHeaders.PROXY_AUTHENTICATE);

    /**
     * Creates the module.
     */
    public ResponseEntityJacksonModule() {
        super(ResponseEntityJacksonModule.class.getSimpleName());
    }

    @Override
    public void setupModule(SetupContext context) {
        super.setupModule(context);
        context.addSerializers(new ResponseEntitySerializers());
        context.addDeserializers(new ResponseEntityDeserializers());
    }

    @Override
    public Object getRegistrationId() {
        return ResponseEntityJacksonModule.class.getName();
    }

    private static boolean isCredential(String header) {
        for (String credential : CREDENTIAL_HEADERS) {
            if (credential.equalsIgnoreCase(header)) {
                return true;
            }
        }
        return false;
    }

    private static final class ResponseEntitySerializers extends Serializers.Base {

        @Override
        public @Nullable ValueSerializer<?> findSerializer(SerializationConfig config, JavaType type,
                BeanDescription.Supplier description, JsonFormat.@Nullable Value formatOverrides) {
            if (!ResponseEntity.class.isAssignableFrom(type.getRawClass())) {
                return null;
            }
            JavaType entityType = type.findSuperType(ResponseEntity.class);
            JavaType bodyType = (entityType != null) ? entityType.containedTypeOrUnknown(0)
                    : config.constructType(Object.class);
            return new ResponseEntitySerializer(type, bodyType, null);
        }

    }

    @SuppressWarnings("rawtypes")
    private static final class ResponseEntitySerializer extends StdSerializer<ResponseEntity> {

        private final JavaType entityType;

        private final JavaType bodyType;

        private final @Nullable TypeSerializer bodyTypeSerializer;

        ResponseEntitySerializer(JavaType type, JavaType bodyType, @Nullable TypeSerializer bodyTypeSerializer) {
            super(type);
            this.entityType = type;
            this.bodyType = bodyType;
            this.bodyTypeSerializer = bodyTypeSerializer;
        }

        @Override
        public ValueSerializer<?> createContextual(SerializationContext context, @Nullable BeanProperty property) {
            TypeSerializer bodyTypeSerializer = context.findTypeSerializer(this.bodyType);
            return (bodyTypeSerializer == null) ? this
                    : new ResponseEntitySerializer(this.entityType, this.bodyType, bodyTypeSerializer);
        }

        @Override
        public void serialize(ResponseEntity entity, JsonGenerator generator, SerializationContext context)
                throws JacksonException {
            generator.writeStartObject();
            generator.writeNumberProperty("status", entity.getStatusCode().value());
            generator.writeName("headers");
            generator.writeStartObject();
            for (Map.Entry<String, List<String>> header : entity.getHeaders().headerSet()) {
                if (isCredential(header.getKey())) {
                    continue;
                }
                generator.writeName(header.getKey());
                generator.writeStartArray();
                for (String value : header.getValue()) {
                    generator.writeString(value);
                }
                generator.writeEndArray();
            }
            generator.writeEndObject();
            generator.writeName("body");
            writeBody(entity.getBody(), generator, context);
            generator.writeEndObject();
        }

        private void writeBody(@Nullable Object body, JsonGenerator generator, SerializationContext context)
                throws JacksonException {
            if (body == null) {
                context.defaultSerializeNullValue(generator);
                return;
            }
            ValueSerializer<Object> serializer = context.findContentValueSerializer(valueType(body.getClass(), context),
                    null);
            if (this.bodyTypeSerializer != null) {
                serializer.serializeWithType(body, generator, context, this.bodyTypeSerializer);
            }
            else {
                serializer.serialize(body, generator, context);
            }
        }

        private JavaType valueType(Class<?> bodyClass, SerializationContext context) {
            if (this.bodyType.hasRawClass(bodyClass)) {
                return this.bodyType;
            }
            if (this.bodyType.isJavaLangObject() || !this.bodyType.getRawClass().isAssignableFrom(bodyClass)) {
                return context.constructType(bodyClass);
            }
            try {
                return context.getTypeFactory().constructSpecializedType(this.bodyType, bodyClass);
            }
            catch (IllegalArgumentException ex) {
                return context.constructType(bodyClass);
            }
        }

    }

    private static final class ResponseEntityDeserializers extends Deserializers.Base {

        @Override
        public @Nullable ValueDeserializer<?> findBeanDeserializer(JavaType type, DeserializationConfig config,
                BeanDescription.Supplier description) {
            return type.hasRawClass(ResponseEntity.class)
                    ? new ResponseEntityDeserializer(type, type.containedTypeOrUnknown(0)) : null;
        }

        @Override
        public boolean hasDeserializerFor(DeserializationConfig config, Class<?> valueType) {
            return valueType == ResponseEntity.class;
        }

    }

    private static final class ResponseEntityDeserializer extends StdDeserializer<ResponseEntity<?>> {

        private final JavaType bodyType;

        ResponseEntityDeserializer(JavaType type, JavaType bodyType) {
            super(type);
            this.bodyType = bodyType;
        }

        @Override
        public ResponseEntity<?> deserialize(JsonParser parser, DeserializationContext context)
                throws JacksonException {
            JsonNode node = context.readTree(parser);
            JsonNode status = node.get("status");
            if (status == null || !status.canConvertToInt()) {
                return context.reportInputMismatch(this, "ResponseEntity without a numeric 'status': %s", node);
            }
            HttpHeaders headers = new HttpHeaders();
            JsonNode headerNodes = node.get("headers");
            if (headerNodes != null) {
                for (Map.Entry<String, JsonNode> header : headerNodes.properties()) {
                    if (isCredential(header.getKey())) {
                        continue;
                    }
                    for (JsonNode value : header.getValue()) {
                        headers.add(header.getKey(), value.asString());
                    }
                }
            }
            JsonNode body = node.get("body");
            Object value = (body == null || body.isNull()) ? null : context.readTreeAsValue(body, this.bodyType);
            return new ResponseEntity<>(value, headers, HttpStatusCode.valueOf(status.asInt()));
        }

    }

}
