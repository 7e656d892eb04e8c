package dev.resilience.aop;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.io.Writer;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.annotation.JsonFormat;
import dev.resilience.registry.ArgumentRenderer;
import dev.resilience.registry.JsonArgumentRenderer;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamWriteConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationConfig;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.module.SimpleSerializers;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.ser.jdk.JDKKeySerializers;
import tools.jackson.databind.ser.std.StdSerializer;

import org.springframework.core.log.LogMessage;

/**
 * Makes the fingerprints of idempotent calls: an HMAC-SHA256, keyed by a secret, over the
 * canonical JSON of the arguments' full values. The values are written by a mapper of
 * their own that reads fields, not getters, and ignores every annotation, so that neither
 * {@code @JsonIgnore}, write-only properties nor masking serializers hide a difference,
 * nor do the modules of the application's mapper; maps and sets are written in
 * {@link JsonArgumentRenderer}'s canonical order, so equal arguments give equal
 * fingerprints on every instance that shares the secret. A map key that Jackson would
 * write with its {@code toString()} (any type but strings, numbers, enums and the other
 * JDK types it writes as text) is written as its own canonical field JSON, so that a key
 * masked in {@code toString()} hides no difference and one without a {@code toString()}
 * of its own adds no identity hash. A value that mapper cannot write (a cycle, a type
 * without fields) contributes its type name, with a WARN once per type, never its
 * {@code toString()}. Without the secret, a fingerprint read from a store tells nothing
 * of the arguments. Thread-safe.
 */
public final class IdempotencyFingerprints {

    /** The shortest secret accepted, in characters. */
    public static final int MIN_SECRET_LENGTH = 32;

    private static final String ALGORITHM = "HmacSHA256";

    private static final byte SEPARATOR = 0x1f;

    /** How deep a value may nest before it counts as unwritable, such as a cycle. */
    private static final int MAX_DEPTH = 100;

    private static final org.apache.commons.logging.Log logger = org.apache.commons.logging.LogFactory
        .getLog(IdempotencyFingerprints.class);

    private final Mac prototype;

    private final JsonMapper fields;

    private final ArgumentRenderer renderer;

    private final Set<String> unwritableTypes = ConcurrentHashMap.newKeySet();

    private IdempotencyFingerprints(byte[] secret) {
        try {
            this.prototype = Mac.getInstance(ALGORITHM);
            this.prototype.init(new SecretKeySpec(secret, ALGORITHM));
        }
        catch (GeneralSecurityException ex) {
            throw new IllegalStateException("HmacSHA256 is required of every Java platform", ex);
        }
        this.fields = JsonMapper
            .builder(JsonFactory.builder()
                .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                .build())
            .disable(MapperFeature.USE_ANNOTATIONS)
            .addModule(new SimpleModule("resilience-field-keys").setKeySerializers(new FieldKeySerializers()))
            .changeDefaultVisibility((visibility) -> visibility.withFieldVisibility(Visibility.ANY)
                .withGetterVisibility(Visibility.NONE)
                .withIsGetterVisibility(Visibility.NONE))
            .build();
        this.renderer = new JsonArgumentRenderer(this.fields);
    }

    /**
     * Renders a value's full fields as canonical JSON. A value that cannot be written, or
     * nests deeper than {@value #MAX_DEPTH} levels (a cycle), is first found by writing
     * it to nowhere through a generator that bounds the depth, so that no cycle ever
     * recurses until the stack overflows; it renders as its type name, with a WARN once
     * per type.
     */
    private String render(@Nullable Object value) {
        try {
            this.fields.writeValue(Writer.nullWriter(), value);
        }
        catch (RuntimeException ex) {
            String type = value.getClass().getName();
            if (this.unwritableTypes.add(type)) {
                logger.warn(LogMessage.format("Arguments of type %s cannot be written field by field (%s): "
                        + "idempotency fingerprints count them as their type name, so two of them never tell calls "
                        + "apart. Say what identifies a call with @Idempotent(fingerprint).", type,
                        ex.getClass().getSimpleName()));
            }
            return "<" + type + ">";
        }
        return this.renderer.render(value);
    }

    /**
     * Returns fingerprints keyed by a secret that every instance sharing a store shares.
     * @param secret the secret, at least {@value #MIN_SECRET_LENGTH} characters
     * @return the fingerprints
     * @throws IllegalArgumentException when the secret is shorter; the message does not
     * quote it
     */
    public static IdempotencyFingerprints withSecret(String secret) {
        if (secret.length() < MIN_SECRET_LENGTH) {
            throw new IllegalArgumentException("The fingerprint secret must be at least " + MIN_SECRET_LENGTH
                    + " characters long; it is " + secret.length());
        }
        return new IdempotencyFingerprints(secret.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Returns fingerprints keyed by a random secret of this instance alone, for a store
     * that no other instance reads.
     * @return the fingerprints
     */
    public static IdempotencyFingerprints withRandomSecret() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return new IdempotencyFingerprints(Base64.getEncoder().encode(secret));
    }

    /**
     * Works out the fingerprint of values as the default fingerprint of a method taking
     * them as its arguments, for a call that reaches the engine without the annotation
     * ({@code CallContext.idempotent(scope, key, fingerprint)}).
     * @param values the values that identify the call
     * @return the hex HMAC-SHA256 of their canonical JSON
     */
    public String fingerprint(@Nullable Object... values) {
        Digest digest = start();
        for (Object value : values) {
            digest.add(value);
        }
        return digest.finish();
    }

    /**
     * Starts the fingerprint of one call.
     * @return a digest for this call alone
     */
    Digest start() {
        Mac mac;
        try {
            mac = (Mac) this.prototype.clone();
        }
        catch (CloneNotSupportedException ex) {
            throw new IllegalStateException("HmacSHA256 of this platform cannot be copied", ex);
        }
        return new Digest(mac, this::render);
    }

    /**
     * Finds the key serializer of a map key that Jackson would write with its
     * {@code toString()}: every type without a standard key serializer of Jackson's.
     */
    private static final class FieldKeySerializers extends SimpleSerializers {

        private static final long serialVersionUID = 1L;

        @Override
        public @Nullable ValueSerializer<?> findSerializer(SerializationConfig config, JavaType type,
                BeanDescription.Supplier description, JsonFormat.Value format) {
            Class<?> raw = type.getRawClass();
            if (raw.isEnum() || JDKKeySerializers.getStdKeySerializer(config, raw, false) != null) {
                return null;
            }
            return new FieldKeySerializer();
        }

    }

    /**
     * Writes a map key as the canonical JSON of its fields, members sorted by name.
     */
    private static final class FieldKeySerializer extends StdSerializer<Object> {

        private static final JsonMapper sortKeys = JsonMapper.builder()
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .build();

        FieldKeySerializer() {
            super(Object.class);
        }

        @Override
        public void serialize(Object key, JsonGenerator generator, SerializationContext context) {
            JsonNode node = context.valueToTree(key);
            generator.writeName(sortKeys.writeValueAsString((node != null) ? node : NullNode.getInstance()));
        }

    }

    /**
     * The fingerprint of one call, fed one value at a time. Not thread-safe.
     */
    static final class Digest {

        private final Mac mac;

        private final ArgumentRenderer renderer;

        private Digest(Mac mac, ArgumentRenderer renderer) {
            this.mac = mac;
            this.renderer = renderer;
        }

        /**
         * Adds a value, followed by a separator.
         * @param value the value
         * @throws RuntimeException when the value cannot be rendered
         */
        void add(@Nullable Object value) {
            this.mac.update(this.renderer.render(value).getBytes(StandardCharsets.UTF_8));
            this.mac.update(SEPARATOR);
        }

        /**
         * Ends the fingerprint.
         * @return the HMAC in hex
         */
        String finish() {
            return HexFormat.of().formatHex(this.mac.doFinal());
        }

    }

}
