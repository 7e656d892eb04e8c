package dev.resilience.actuate.endpoint;

import java.security.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import dev.resilience.actuate.endpoint.DeadLettersEndpoint.DeadLetterDescriptor;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterSanitizer;
import dev.resilience.core.deadletter.InMemoryDeadLetterStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;

import static org.assertj.core.api.Assertions.assertThat;

class DeadLettersEndpointTests {

    private static final String ARGUMENT = "{\"card\":{\"number\":\"4111111111111111\"},\"orderId\":\"o-1\","
            + "\"password\":\"hunter2\"}";

    private static final SecurityContext OPERATOR = new SecurityContext() {

        @Override
        public Principal getPrincipal() {
            return () -> "operator";
        }

        @Override
        public boolean isUserInRole(String role) {
            return "OPERATOR".equals(role);
        }
    };

    private final InMemoryDeadLetterStore store = new InMemoryDeadLetterStore();

    @Test
    void showValuesNeverMasksEveryValueEvenForAnAuthorizedUser() {
        this.store.write(deadLetter());

        DeadLetterDescriptor shown = endpoint(Show.NEVER).deadLetter(OPERATOR, "id-1");

        assertThat(shown.arguments()).containsExactly(DeadLetterSanitizer.MASK, DeadLetterSanitizer.MASK);
        assertThat(shown.errorMessage()).isEqualTo(DeadLetterSanitizer.MASK);
        assertThat(endpoint(Show.NEVER).deadLetters(OPERATOR, null).deadLetters().get(0).arguments())
            .containsOnly(DeadLetterSanitizer.MASK);
    }

    @Test
    void showValuesAlwaysShowsNonSensitiveValuesToAnonymousCallers() {
        this.store.write(deadLetter());

        DeadLetterDescriptor shown = endpoint(Show.ALWAYS).deadLetter(SecurityContext.NONE, "id-1");

        assertThat(shown.arguments())
            .containsExactly("{\"card\":\"******\",\"orderId\":\"o-1\",\"password\":\"******\"}", "12");
        assertThat(shown.errorMessage()).isEqualTo("gateway down");
    }

    @Test
    void whenAuthorizedShowsValuesOnlyToAUserWithARole() {
        this.store.write(deadLetter());
        DeadLettersEndpoint endpoint = endpoint(Show.WHEN_AUTHORIZED);

        assertThat(endpoint.deadLetter(SecurityContext.NONE, "id-1").arguments())
            .containsOnly(DeadLetterSanitizer.MASK);
        assertThat(endpoint.deadLetter(OPERATOR, "id-1").arguments()).contains("12");
    }

    private DeadLettersEndpoint endpoint(Show show) {
        return new DeadLettersEndpoint(this.store, new DeadLetterSanitizer(), show, Set.of("OPERATOR"));
    }

    private static DeadLetter deadLetter() {
        return new DeadLetter("id-1", "payment", "PaymentService#pay", List.of(ARGUMENT, "12"), "java.io.IOException",
                "gateway down", 3, Instant.EPOCH, Instant.EPOCH, ExecutionStatus.ERROR);
    }

}
