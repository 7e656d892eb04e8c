package dev.resilience.logging;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.resilience.core.ExecutionResult;
import dev.resilience.core.ExecutionStatus;
import dev.resilience.core.retry.RetryEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lines of a call whose error message carries the URL it called: the HTTP client's
 * errors name the URL with its query and user info, where tokens travel, and section 16
 * keeps URLs without user info and query wherever the library shows them.
 */
@ExtendWith(OutputCaptureExtension.class)
class ExecutionLogListenerSecretsTests {

    private static final String TOKEN = "tok_live_5ecr3t";

    private static final ResourceAccessException ERROR = new ResourceAccessException(
            "I/O error on GET request for \"https://svc:pa55w0rd@prices.example.com/eth?access_token=" + TOKEN
                    + "\": Connection refused");

    private final ExecutionLogListener listener = new ExecutionLogListener();

    @Test
    void retryLineOfAnHttpErrorDoesNotHoldTheTokenOrPasswordOfItsUrl(CapturedOutput output) {
        this.listener.onRetry("price-oracle", retryEvent());

        assertThat(output.getOut()).contains("Retrying 'price-oracle'")
            .doesNotContain(TOKEN)
            .doesNotContain("pa55w0rd");
    }

    @Test
    void callLineOfAnHttpErrorDoesNotHoldTheTokenOrPasswordOfItsUrl(CapturedOutput output) {
        this.listener.onComplete("price-oracle", new ExecutionResult<>(ExecutionStatus.ERROR, null, ERROR, 3, List.of(),
                Duration.ofMillis(30), false, 0, false, Map.of()));

        assertThat(output.getOut()).contains("Call 'price-oracle' ended ERROR")
            .doesNotContain(TOKEN)
            .doesNotContain("pa55w0rd");
    }

    private static RetryEvent retryEvent() {
        return new RetryEvent("price-oracle", 1, ERROR, Duration.ofMillis(100));
    }

}
