package dev.resilience.redis;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.resilience.core.idempotency.IdempotencyResultUnavailableException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Where the type declared at a position is a JDK type ({@code Object}, {@code Runnable}),
 * "its package" is the JDK's: stored data may choose a JDK value there (a number, a
 * string), never a JDK class built as a bean, such as a {@code java.lang.Thread}, unless
 * {@code resilience.idempotency.allowed-types} names it.
 */
class JdkDeclaredTypesDecodingTests {

    private final JsonResultCodec codec = new JsonResultCodec(JsonMapper.builder().build());

    @Test
    void storedJdkClassUnderAnObjectPropertyTypedByTheApplicationIsRefused() {
        String json = "{\"payload\":{\"@class\":\"java.lang.Thread\",\"name\":\"planted\",\"daemon\":true}}";

        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(() -> this.codec.read("k-1", json, Envelope.class.getName()).decode(Envelope.class));
    }

    @Test
    void storedJdkClassWhereAJdkInterfaceIsDeclaredIsRefused() {
        assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
            .isThrownBy(
                    () -> this.codec.read("k-1", "{\"name\":\"planted\"}", "java.lang.Thread").decode(Runnable.class))
            .withMessageContaining("resilience.idempotency.allowed-types");
    }

    @Test
    void storedJdkValueWhereAJdkTypeOfItsPackageIsDeclaredIsRead() {
        assertThat(this.codec.read("k-1", "42", "java.lang.Integer").decode(Number.class)).isEqualTo(42);
        assertThat(this.codec.read("k-1", "\"text\"", "java.lang.String").decode(CharSequence.class)).isEqualTo("text");
    }

    @Test
    void jdkClassNamedInTheAllowedTypesIsRead() {
        JsonResultCodec allowing = new JsonResultCodec(JsonMapper.builder().build(), List.of("java.lang.StringBuilder"),
                DataSize.ofKilobytes(1));
        String json = "{\"payload\":[\"java.lang.StringBuilder\",\"text\"]}";

        Envelope envelope = (Envelope) allowing.read("k-1", json, Envelope.class.getName()).decode(Envelope.class);

        assertThat(envelope.payload()).isInstanceOf(StringBuilder.class).hasToString("text");
    }

    @Test
    void theApplicationsOwnObjectPropertyStillReplays() {
        Envelope written = new Envelope("text");

        Object replayed = this.codec.read("k-1", this.codec.write(written, Envelope.class), Envelope.class.getName())
            .decode(Envelope.class);

        assertThat(replayed).isEqualTo(written);
    }

    /**
     * A result whose {@code Object} property the application types with class names.
     *
     * @param payload any value
     */
    record Envelope(@JsonTypeInfo(use = JsonTypeInfo.Id.CLASS) Object payload) {
    }

}
