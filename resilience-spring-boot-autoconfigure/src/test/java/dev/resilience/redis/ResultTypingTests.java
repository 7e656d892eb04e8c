package dev.resilience.redis;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.TypeIdResolver;
import tools.jackson.databind.jsontype.impl.TypeNameIdResolver;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.TypeFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Which positions {@link ResultTyping} types, as the mapper it is built from decides, and
 * the copies of the rule that Jackson asks for.
 */
class ResultTypingTests {

    private static final JsonTypeInfo.Value NAMES = JsonTypeInfo.Value.construct(JsonTypeInfo.Id.NAME,
            JsonTypeInfo.As.PROPERTY, "type", null, false, null);

    private final ResultTyping typing = ResultTyping.of(JsonMapper.builder().build(), new AllowedTypes(List.of()));

    @Test
    void abstractTypesTheMapperCannotBuildAreTyped() {
        assertThat(this.typing.useForType(type(Parcel.class))).isTrue();
        assertThat(this.typing.useForType(type(Shape.class))).isTrue();
    }

    @Test
    void abstractTypesTheMapperReadsAsDeclaredAreNotTyped() {
        JsonMapper mapper = JsonMapper.builder()
            .addModule(new SimpleModule().addAbstractTypeMapping(Mapped.class, Letter.class)
                .addDeserializer(Read.class, new StdDeserializer<Read>(Read.class) {
                    @Override
                    public Read deserialize(JsonParser parser, DeserializationContext context) {
                        return new Letter(parser.getString());
                    }
                }))
            .addMixIn(MixedIn.class, AsLetter.class)
            .build();
        ResultTyping typing = ResultTyping.of(mapper, new AllowedTypes(List.of()));

        for (Class<?> readable : List.of(Mapped.class, Read.class, MixedIn.class, Annotated.class, Created.class)) {
            assertThat(typing.useForType(type(readable))).as(readable.getSimpleName()).isFalse();
        }
        assertThat(typing.useForType(type(Parcel.class))).isTrue();
    }

    @Test
    void concreteJdkEnumAndContainerTypesAreNotTyped() {
        for (Class<?> type : List.of(Letter.class, Object.class, Number.class, Runnable.class, Size.class,
                List.class)) {
            assertThat(this.typing.useForType(type(type))).as(type.getSimpleName()).isFalse();
        }
    }

    @Test
    void copyWithADefaultClassKeepsTheRuleAndLeavesItUnchanged() {
        ResultTyping copy = this.typing.withDefaultImpl(Letter.class);

        assertThat(copy).isNotSameAs(this.typing);
        assertThat(copy.getDefaultImpl()).isEqualTo(Letter.class);
        assertThat(this.typing.getDefaultImpl()).isNull();
        assertThat(copy.useForType(type(Parcel.class))).isTrue();
        assertThat(copy.useForType(type(Letter.class))).isFalse();
        assertThat(this.typing.withDefaultImpl(null)).isSameAs(this.typing);
    }

    @Test
    void copyWithOtherSettingsKeepsCheckedClassIdsAndLeavesTheRuleUnchanged() {
        ResultTyping copy = this.typing.withSettings(NAMES);
        JsonMapper mapper = JsonMapper.builder().setDefaultTyping(copy).build();
        JavaType parcels = TypeFactory.createDefaultInstance().constructCollectionType(List.class, Parcel.class);

        String json = mapper.writerFor(parcels).writeValueAsString(List.of(new Letter("L-1")));

        assertThat(copy).isNotSameAs(this.typing);
        assertThat(copy.getTypeProperty()).isEqualTo("type");
        assertThat(this.typing.getTypeProperty()).isEqualTo("@class");
        assertThat(json).isEqualTo("[{\"type\":\"" + Letter.class.getName() + "\",\"id\":\"L-1\"}]");
        assertThat(mapper.<List<Parcel>>readValue(json, parcels)).containsExactly(new Letter("L-1"));
        assertThatExceptionOfType(RuntimeException.class)
            .isThrownBy(() -> mapper.readValue("[{\"type\":\"" + Size.class.getName() + "\"}]", parcels));
    }

    @Test
    void initializedCopyIgnoresACustomIdResolverAndLeavesTheRuleUnchanged() {
        TypeIdResolver names = TypeNameIdResolver.construct(JsonMapper.builder().build().deserializationConfig(),
                type(Parcel.class), List.of(), true, false);

        ResultTyping copy = this.typing.init(NAMES, names);
        JsonMapper mapper = JsonMapper.builder().setDefaultTyping(copy).build();

        assertThat(copy).isNotSameAs(this.typing);
        assertThat(mapper.writerFor(Parcel.class).writeValueAsString(new Letter("L-1")))
            .isEqualTo("{\"type\":\"" + Letter.class.getName() + "\",\"id\":\"L-1\"}");
        assertThat(this.typing.getTypeProperty()).isEqualTo("@class");
        assertThat(this.typing.typeIdVisibility(true)).isNotSameAs(this.typing);
        assertThat(this.typing.isTypeIdVisible()).isFalse();
    }

    private static JavaType type(Class<?> type) {
        return TypeFactory.createDefaultInstance().constructType(type);
    }

    sealed interface Parcel permits Letter {

    }

    record Letter(String id) implements Parcel, Mapped, Read, MixedIn, Annotated, Created {
    }

    /** An abstract class with a constructor, which Jackson still cannot build. */
    abstract static class Shape {

        Shape() {
        }

    }

    enum Size {

        SMALL

    }

    interface Mapped {

    }

    interface Read {

    }

    interface MixedIn {

    }

    @JsonDeserialize(as = Letter.class)
    interface AsLetter {

    }

    @JsonDeserialize(as = Letter.class)
    interface Annotated {

    }

    interface Created {

        @JsonCreator
        static Created of(String id) {
            return new Letter(id);
        }

    }

}
