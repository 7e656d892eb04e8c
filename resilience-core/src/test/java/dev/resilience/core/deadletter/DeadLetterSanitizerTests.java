package dev.resilience.core.deadletter;

import java.time.Instant;
import java.util.List;

import dev.resilience.core.ExecutionStatus;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DeadLetterSanitizerTests {

    private final DeadLetterSanitizer sanitizer = new DeadLetterSanitizer();

    @Test
    void valuesOfSensitiveKeysAreMaskedAtAnyDepthWhateverTheCase() {
        assertThat(
                this.sanitizer.sanitize("{\"orderId\":\"o-1\",\"Password\":\"hunter2\",\"customer\":{\"name\":\"Ann\","
                        + "\"apiToken\":\"t\"},\"items\":[{\"sku\":\"a\",\"secretCode\":7}]}"))
            .isEqualTo(
                    "{\"orderId\":\"o-1\",\"Password\":\"******\",\"customer\":{\"name\":\"Ann\",\"apiToken\":\"******\"},"
                            + "\"items\":[{\"sku\":\"a\",\"secretCode\":\"******\"}]}");
    }

    @Test
    void objectOrArrayUnderASensitiveKeyIsMaskedWhole() {
        assertThat(this.sanitizer.sanitize("{\"card\":{\"number\":\"4111\",\"cvc\":\"123\"},\"keys\":[1,2],\"n\":1}"))
            .isEqualTo("{\"card\":\"******\",\"keys\":\"******\",\"n\":1}");
    }

    @Test
    void scalarsAndTypeNamesAreShownAsTheyAre() {
        assertThat(this.sanitizer.sanitize("\"o-\\\"1\\\"\"")).isEqualTo("\"o-\\\"1\\\"\"");
        assertThat(this.sanitizer.sanitize("-12.5e3")).isEqualTo("-12.5e3");
        assertThat(this.sanitizer.sanitize("null")).isEqualTo("null");
        assertThat(this.sanitizer.sanitize("<com.example.Opaque>")).isEqualTo("<com.example.Opaque>");
    }

    @Test
    void textThatIsNotJsonIsMaskedWhole() {
        assertThat(this.sanitizer.sanitize("{password=hunter2}")).isEqualTo(DeadLetterSanitizer.MASK);
        assertThat(this.sanitizer.sanitize("Payment[password=hunter2]")).isEqualTo(DeadLetterSanitizer.MASK);
        assertThat(this.sanitizer.sanitize("{\"a\":1")).isEqualTo(DeadLetterSanitizer.MASK);
    }

    @Test
    void truncatedJsonIsSanitizedAsFarAsItGoesAndKeepsItsMarker() {
        assertThat(this.sanitizer.sanitize("{\"name\":\"Ann\",\"password\":\"hun...[truncated 9 bytes]"))
            .isEqualTo("{\"name\":\"Ann\",\"password\":\"******\"...[truncated 9 bytes]");
        assertThat(this.sanitizer.sanitize("{\"name\":\"An...[truncated 9 bytes]"))
            .isEqualTo("{\"name\":\"An...[truncated 9 bytes]");
    }

    @Test
    void keysWrittenWithEscapesAreReadAsTheirCharacters() {
        assertThat(this.sanitizer.sanitize("{\"pass\\u0077ord\":\"hunter2\",\"api\\u005fkey\":\"k-1\"}"))
            .isEqualTo("{\"pass\\u0077ord\":\"******\",\"api\\u005fkey\":\"******\"}");
    }

    @Test
    void jsonNestedDeeperThanTheBoundIsMaskedWholeInsteadOfOverflowingTheStack() {
        String deep = "{\"a\":".repeat(3000) + "{\"password\":\"hunter2\"}" + "}".repeat(3000);
        String cut = DeadLetterText.truncate(deep, DeadLetterText.DEFAULT_MAX_ARGUMENT_SIZE);

        assertThat(this.sanitizer.sanitize(deep)).isEqualTo(DeadLetterSanitizer.MASK);
        assertThat(this.sanitizer.sanitize(cut)).doesNotContain("hunter2");
        assertThat(this.sanitizer.sanitize("[".repeat(20_000))).isEqualTo(DeadLetterSanitizer.MASK);
        String atTheBound = "[".repeat(DeadLetterSanitizer.MAX_DEPTH) + "1" + "]".repeat(DeadLetterSanitizer.MAX_DEPTH);
        assertThat(this.sanitizer.sanitize(atTheBound)).isEqualTo(atTheBound);
    }

    @Test
    void jsonHeldInAStringIsSanitizedToo() {
        String payload = DeadLetterText.asData("{\"user\":\"ann\",\"password\":\"hunter2\"}");
        String nested = "{\"payload\":" + DeadLetterText.asData("[{\"apiToken\":\"t-1\",\"n\":1}]") + "}";

        assertThat(this.sanitizer.sanitize(payload))
            .isEqualTo(DeadLetterText.asData("{\"user\":\"ann\",\"password\":\"******\"}"));
        assertThat(this.sanitizer.sanitize(nested))
            .isEqualTo("{\"payload\":" + DeadLetterText.asData("[{\"apiToken\":\"******\",\"n\":1}]") + "}");
        assertThat(this.sanitizer.sanitize(DeadLetterText.asData("{password=hunter2}")))
            .isEqualTo(DeadLetterText.asData(DeadLetterSanitizer.MASK));
        assertThat(this.sanitizer.sanitize("\"plain text\"")).isEqualTo("\"plain text\"");
    }

    @Test
    void jsonHeldInAStringCutByTheBoundShowsNoPartOfASecret() {
        String payload = DeadLetterText.asData("{\"user\":\"ann\",\"password\":\"hunter2-and-more\"}");
        String cut = DeadLetterText.truncate(payload, payload.indexOf("hunter2") + 3);

        assertThat(cut).contains("hun");
        assertThat(this.sanitizer.sanitize(cut)).doesNotContain("hun").contains("ann").endsWith(" bytes]");
    }

    @Test
    void shownErrorMessagesHaveTheValuesOfSensitiveKeysMasked() {
        DeadLetter deadLetter = new DeadLetter("id", "auth", "A#refresh", List.of(), "HttpClientErrorException",
                "401 Unauthorized on POST request for \"https://auth.example/token\": "
                        + "\"{\"error\":\"expired\",\"refresh_token\":\"r-123\",\"n\":1}\"; "
                        + "password=hunter2, Authorization: Bearer abc.def, user=ann",
                1, Instant.EPOCH, Instant.EPOCH, ExecutionStatus.ERROR);

        assertThat(this.sanitizer.sanitize(deadLetter, true).errorMessage())
            .isEqualTo("401 Unauthorized on POST request for \"https://auth.example/token\": "
                    + "\"{\"error\":\"expired\",\"refresh_token\":\"******\",\"n\":1}\"; "
                    + "password=******, Authorization: Bearer ******, user=ann");
    }

    @Test
    void hiddenValuesMaskEveryArgumentAndTheErrorMessage() {
        DeadLetter deadLetter = new DeadLetter("id", "payment", "P#pay", List.of("\"o-1\"", "12"),
                "java.io.IOException", "card 4111 declined", 3, Instant.EPOCH, Instant.EPOCH, ExecutionStatus.ERROR);

        DeadLetter hidden = this.sanitizer.sanitize(deadLetter, false);
        DeadLetter shown = this.sanitizer.sanitize(deadLetter, true);

        assertThat(hidden.arguments()).containsExactly(DeadLetterSanitizer.MASK, DeadLetterSanitizer.MASK);
        assertThat(hidden.errorMessage()).isEqualTo(DeadLetterSanitizer.MASK);
        assertThat(shown).isEqualTo(deadLetter);
    }

}
