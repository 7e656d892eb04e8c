package dev.resilience.sample.order;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The card as an order's view shows it: the token's last four characters, counted as
 * characters a reader sees (code points), never half of one.
 */
class OrderViewTests {

    @Test
    void anAsciiTokenShowsItsLastFour() {
        assertThat(OrderView.mask("tok_visa_4242")).isEqualTo("****4242");
    }

    @Test
    void aTokenOfEightCharactersOrFewerIsMaskedWhole() {
        assertThat(OrderView.mask("tok_4242")).isEqualTo("****");
        assertThat(OrderView.mask("")).isEqualTo("****");
    }

    @Test
    void aTokenEndingInASurrogatePairIsNotCutInsideIt() {
        String shown = OrderView.mask("tok_visa_\uD83D\uDE00242");

        assertThat(shown).isEqualTo("****\uD83D\uDE00242");
        assertThat(
                shown.codePoints().filter((c) -> c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE).count())
            .as("unpaired surrogates")
            .isZero();
    }

    @Test
    void aTokenOfEightCodePointsIsMaskedWholeHoweverManyCharsItTakes() {
        // eight code points, twelve UTF-16 chars: showing four chars would show two of
        // eight
        // code points, but the rule hides tokens of eight characters or fewer whole
        assertThat(OrderView.mask("\uD83D\uDE00\uD83D\uDE01\uD83D\uDE02\uD83D\uDE03abcd")).isEqualTo("****");
    }

}
