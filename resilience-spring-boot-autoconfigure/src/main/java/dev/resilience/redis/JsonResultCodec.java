package dev.resilience.redis;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

import dev.resilience.core.idempotency.EncodedResult;
import dev.resilience.core.idempotency.IdempotencyResultNotStorableException;
import dev.resilience.core.idempotency.ResultCodec;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.TypeFactory;

import org.springframework.util.ClassUtils;
import org.springframework.util.ConcurrentLruCache;
import org.springframework.util.unit.DataSize;

/**
 * The JSON form of idempotent results, shared by the Redis store and, through
 * {@link ResultCodec}, the in-memory store, so that both keep results alike: as data,
 * bounded in bytes, read back within bounds.
 *
 * <p>
 * <b>The store's own mapper.</b> Built from the application's {@link JsonMapper} for its
 * modules and mix-ins, with the application's default typing removed and the store's
 * {@link ResultTyping} and polymorphic type validator in place of the application's, plus
 * {@link ResponseEntityJacksonModule} when Spring Web is present. Dates and times are
 * kept as text with their offset, zone and nanoseconds and read back unadjusted, whatever
 * the application's date settings, so a replayed date-time equals the first call's.
 *
 * <p>
 * <b>Bounded decoding.</b> A replay reads the declared type, or where the declared type
 * cannot say what to build (an interface, an abstract class) the stored class, only when
 * it is a subtype of the declared type in the declared type's package or in the allowed
 * types ({@code resilience.idempotency.allowed-types}: class or package names); the same
 * rule holds at every position inside the value. Any other stored class is refused before
 * it is initialized or instantiated, as
 * {@link dev.resilience.core.idempotency.IdempotencyResultUnavailableException}. A result
 * encoded in this process for the in-memory store keeps its class as a {@code Class},
 * which no stored data can name, so a method declaring {@code Object} replays there.
 *
 * <p>
 * <b>Size.</b> A result whose JSON is larger than the bound
 * ({@code resilience.idempotency.max-result-size}) is refused with
 * {@link IdempotencyResultNotStorableException}, counted while it is written without
 * holding more than the bound. Thread-safe.
 */
public final class JsonResultCodec implements ResultCodec {

    /** The default bound of a result's JSON: 1MB. */
    public static final DataSize DEFAULT_MAX_RESULT_SIZE = DataSize.ofMegabytes(1);

    static final String MAX_RESULT_SIZE_PROPERTY = "resilience.idempotency.max-result-size";

    private static final String RESPONSE_ENTITY = "org.springframework.http.ResponseEntity";

    private static final int WRITERS = 256;

    private final JsonMapper mapper;

    private final JsonMapper untypedMapper;

    private final AllowedTypes allowedTypes;

    private final DataSize maxResultSize;

    private final ConcurrentLruCache<RootType, ObjectWriter> writers = new ConcurrentLruCache<>(WRITERS, this::writer);

    /**
     * Creates a codec that allows no types beyond the declared types' packages and bounds
     * results to {@link #DEFAULT_MAX_RESULT_SIZE}.
     * @param mapper the application's mapper, whose modules and mix-ins the codec's own
     * mapper keeps
     */
    public JsonResultCodec(JsonMapper mapper) {
        this(mapper, List.of(), DEFAULT_MAX_RESULT_SIZE);
    }

    /**
     * Creates a codec.
     * @param mapper the application's mapper, whose modules and mix-ins the codec's own
     * mapper keeps
     * @param allowedTypes class names (binary names) or package names whose classes a
     * replay may read where a supertype of theirs from another package is declared
     * @param maxResultSize the largest JSON of a result; positive
     * @throws IllegalArgumentException if {@code maxResultSize} is not positive
     */
    public JsonResultCodec(JsonMapper mapper, Collection<String> allowedTypes, DataSize maxResultSize) {
        Objects.requireNonNull(maxResultSize, "maxResultSize");
        if (maxResultSize.toBytes() <= 0) {
            throw new IllegalArgumentException("maxResultSize must be positive, was " + maxResultSize);
        }
        this.allowedTypes = new AllowedTypes(allowedTypes);
        this.untypedMapper = untypedMapper(Objects.requireNonNull(mapper, "mapper"), this.allowedTypes);
        this.mapper = this.untypedMapper.rebuild()
            .setDefaultTyping(ResultTyping.of(this.untypedMapper, this.allowedTypes))
            .build();
        this.maxResultSize = maxResultSize;
    }

    /**
     * {@inheritDoc}
     * <p>
     * The returned result decodes a new copy on every call, read as its own class where
     * the replaying call declares an abstract type or {@code Object}.
     */
    @Override
    public EncodedResult encode(@Nullable Object value, Type type) {
        String json = write(value, type);
        return new JsonResult(this, "", json, (value != null) ? value.getClass().getName() : "",
                (value != null) ? value.getClass() : null);
    }

    /**
     * Writes a result as JSON for its declared type specialized to its class.
     * @throws IdempotencyResultNotStorableException if it cannot be written (an exception
     * or an error of the value's own code, such as a class its getter uses that fails to
     * initialize) or is too large; an error of the virtual machine, such as running out
     * of memory, is thrown as it is
     */
    String write(@Nullable Object value, Type declared) {
        BoundedBytes bytes = new BoundedBytes(this.maxResultSize.toBytes());
        try {
            if (value == null || declared == value.getClass() || declared == Object.class) {
                this.mapper.writeValue(bytes, value);
            }
            else {
                this.writers.get(new RootType(declared, value.getClass())).writeValue(bytes, value);
            }
        }
        catch (RuntimeException | Error ex) {
            if (ex instanceof VirtualMachineError broken) {
                throw broken;
            }
            String type = (value != null) ? value.getClass().getName() : "null";
            throw new IdempotencyResultNotStorableException("a " + type + " cannot be written as JSON", ex);
        }
        if (bytes.count() > this.maxResultSize.toBytes()) {
            String type = (value != null) ? value.getClass().getName() : "null";
            throw new IdempotencyResultNotStorableException("a " + type + " of " + bytes.count()
                    + " bytes as JSON is larger than " + format(this.maxResultSize) + " ("
                    + this.maxResultSize.toBytes() + " bytes), the bound set by " + MAX_RESULT_SIZE_PROPERTY);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * Returns a stored result, to be decoded within this codec's bounds.
     * @param key the key it is stored under, quoted by errors
     * @param json its JSON
     * @param typeName the name of its class, empty for {@code null}
     */
    JsonResult read(String key, String json, String typeName) {
        return new JsonResult(this, key, json, typeName, null);
    }

    JsonMapper mapper() {
        return this.mapper;
    }

    JsonMapper untypedMapper() {
        return this.untypedMapper;
    }

    AllowedTypes allowedTypes() {
        return this.allowedTypes;
    }

    private ObjectWriter writer(RootType root) {
        TypeFactory types = this.mapper.getTypeFactory();
        JavaType declared = types.constructType(root.declared());
        if (declared.hasRawClass(root.type())) {
            return this.mapper.writerFor(declared);
        }
        if (!declared.getRawClass().isAssignableFrom(root.type())) {
            return this.mapper.writerFor(root.type());
        }
        try {
            return this.mapper.writerFor(types.constructSpecializedType(declared, root.type()));
        }
        catch (IllegalArgumentException ex) {
            return this.mapper.writerFor(root.type());
        }
    }

    private static String format(DataSize size) {
        long bytes = size.toBytes();
        if (bytes % DataSize.ofMegabytes(1).toBytes() == 0) {
            return size.toMegabytes() + "MB";
        }
        return (bytes % DataSize.ofKilobytes(1).toBytes() == 0) ? size.toKilobytes() + "KB" : bytes + "B";
    }

    /**
     * Returns the application's mapper without its default typing, with the store's
     * validator of polymorphic types and with {@link ResponseEntityJacksonModule} when
     * Spring Web is present: what decides where {@link ResultTyping} keeps classes, and
     * what reads results stored without them. Dates and times are written as text with
     * their offset, zone and nanoseconds, and read back as written, whatever the
     * application's mapper does with them, so a replayed date-time is the one the first
     * call returned.
     */
    private static JsonMapper untypedMapper(JsonMapper application, AllowedTypes allowedTypes) {
        JsonMapper.Builder builder = application.rebuild()
            .deactivateDefaultTyping()
            .polymorphicTypeValidator(ResultTyping.validator(allowedTypes))
            .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS, DateTimeFeature.WRITE_DATE_KEYS_AS_TIMESTAMPS,
                    DateTimeFeature.WRITE_DATES_WITH_CONTEXT_TIME_ZONE,
                    DateTimeFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE, DateTimeFeature.NORMALIZE_DESERIALIZED_ZONE_ID,
                    DateTimeFeature.TRUNCATE_TO_MSECS_ON_WRITE, DateTimeFeature.TRUNCATE_TO_MSECS_ON_READ)
            .enable(DateTimeFeature.WRITE_DATES_WITH_ZONE_ID);
        if (ClassUtils.isPresent(RESPONSE_ENTITY, JsonResultCodec.class.getClassLoader())) {
            builder.addModule(new ResponseEntityJacksonModule());
        }
        return builder.build();
    }

    /**
     * The type a result is written as: its declared type specialized to its class.
     *
     * @param declared the type the call declares
     * @param type the result's class
     */
    private record RootType(Type declared, Class<?> type) {
    }

    /**
     * Counts every byte written, and keeps them only up to the bound plus one, so a
     * result far over the bound is measured without being held.
     */
    private static final class BoundedBytes extends ByteArrayOutputStream {

        private final long bound;

        private long count;

        BoundedBytes(long bound) {
            super(256);
            this.bound = bound;
        }

        @Override
        public void write(int b) {
            this.count++;
            if (this.count <= this.bound) {
                super.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            long kept = Math.max(0, Math.min(len, this.bound - this.count));
            this.count += len;
            if (kept > 0) {
                super.write(b, off, (int) kept);
            }
        }

        long count() {
            return this.count;
        }

    }

}
