package dev.resilience.redrive;

import java.lang.reflect.Method;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;

import dev.resilience.registry.JsonArgumentRenderer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Review findings on {@link StoredArguments}: an argument read back is not the argument
 * the call had, or a faithful one is refused.
 */
class StoredArgumentsReviewTests {

    private final JsonMapper mapper = JsonMapper.builder().build();

    private final JsonArgumentRenderer renderer = new JsonArgumentRenderer(this.mapper);

    private final StoredArguments arguments = new StoredArguments(this.mapper, this.renderer);

    @Test
    void amountDeclaredAsNumberIsRefusedRatherThanReadBackAsAnotherType() throws Exception {
        Method method = Ledger.class.getMethod("book", Number.class);
        String stored = this.renderer.render(5_000L);

        assertThatExceptionOfType(StoredArguments.UnreadableException.class)
            .isThrownBy(() -> this.arguments.read(List.of(stored), method, Ledger.class))
            .withMessageContaining("declared as Number");
    }

    @Test
    void zonedDateTimeOfAScheduledPaymentIsReadBackAtItsInstantAndOffset() throws Exception {
        Method method = Ledger.class.getMethod("schedule", ZonedDateTime.class);
        ZonedDateTime due = ZonedDateTime.of(2026, 12, 1, 9, 0, 0, 0, ZoneId.of("Europe/Berlin"));
        String stored = this.renderer.render(due);

        Object[] read = this.arguments.read(List.of(stored), method, Ledger.class);

        assertThat(read[0]).as("stored as %s", stored).isInstanceOf(ZonedDateTime.class);
        assertThat(((ZonedDateTime) read[0]).toOffsetDateTime()).isEqualTo(due.toOffsetDateTime());
    }

    @Test
    void offsetDateTimeIsReadBackWithItsOffset() throws Exception {
        Method method = Ledger.class.getMethod("at", OffsetDateTime.class);
        OffsetDateTime due = OffsetDateTime.parse("2026-12-01T09:00:00+01:00");
        String stored = this.renderer.render(due);

        Object[] read = this.arguments.read(List.of(stored), method, Ledger.class);

        assertThat(read[0]).as("stored as %s", stored).isEqualTo(due);
    }

    public static class Ledger {

        public void book(Number amount) {
        }

        public void schedule(ZonedDateTime due) {
        }

        public void at(OffsetDateTime due) {
        }

    }

}
