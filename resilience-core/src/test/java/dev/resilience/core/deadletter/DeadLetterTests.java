package dev.resilience.core.deadletter;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import dev.resilience.core.ExecutionStatus;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

class DeadLetterTests {

    private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void argumentsAreCopiedSoTheDeadLetterNeverChanges() {
        List<String> arguments = new ArrayList<>(List.of("1"));
        DeadLetter deadLetter = new DeadLetter("id", "payment", "PaymentService#pay", arguments, "java.io.IOException",
                null, 1, AT, AT, ExecutionStatus.ERROR);

        arguments.add("2");

        assertThat(deadLetter.arguments()).containsExactly("1");
        assertThat(deadLetter.errorMessage()).isNull();
    }

    @Test
    void requiredComponentsMustNotBeNull() {
        assertThatNullPointerException().isThrownBy(() -> new DeadLetter("id", "payment", "PaymentService#pay",
                List.of(), "java.io.IOException", null, 1, AT, AT, nullStatus()));
    }

    @Test
    void idsAreUniqueVersionSevenUuids() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(DeadLetterIds.next(AT));
        }

        assertThat(ids).hasSize(10_000);
        UUID uuid = UUID.fromString(ids.iterator().next());
        assertThat(uuid.version()).isEqualTo(7);
        assertThat(uuid.variant()).isEqualTo(2);
        assertThat(uuid.getMostSignificantBits() >>> 16).isEqualTo(AT.toEpochMilli());
    }

    @Test
    void idsSortByTimeAsStrings() {
        String earlier = DeadLetterIds.next(AT);
        String later = DeadLetterIds.next(AT.plusMillis(1));
        String muchLater = DeadLetterIds.next(AT.plusSeconds(86_400L * 365 * 100));

        assertThat(Stream.of(muchLater, later, earlier).sorted()).containsExactly(earlier, later, muchLater);
    }

    @Test
    void idsOfInstantsOutsideTheRangeAreClamped() {
        assertThat(UUID.fromString(DeadLetterIds.next(Instant.MIN)).getMostSignificantBits() >>> 16).isZero();
        assertThat(UUID.fromString(DeadLetterIds.next(Instant.MAX)).getMostSignificantBits() >>> 16)
            .isEqualTo(0xFFFF_FFFF_FFFFL);
    }

    private static ExecutionStatus nullStatus() {
        return null;
    }

}
