package dev.resilience.actuate.endpoint;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterStore;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The {@code deadletters} endpoint: the calls whose work was not done, newest first, to
 * inspect and delete once handled by hand.
 */
@Endpoint(id = "deadletters")
public class DeadLettersEndpoint {

    /** How many dead letters are listed when no limit is given. */
    public static final int DEFAULT_LIMIT = 100;

    private final DeadLetterStore store;

    /**
     * Creates the endpoint.
     * @param store the dead letters to report
     */
    public DeadLettersEndpoint(DeadLetterStore store) {
        this.store = store;
    }

    /**
     * Lists the newest dead letters, newest first.
     * @param limit the most to list; {@value #DEFAULT_LIMIT} when not given
     * @return the dead letters
     * @throws InvalidEndpointRequestException (400) if the limit is negative
     */
    @ReadOperation
    public DeadLettersDescriptor deadLetters(@Nullable Integer limit) {
        int max = (limit != null) ? limit : DEFAULT_LIMIT;
        if (max < 0) {
            throw new InvalidEndpointRequestException("Limit must not be negative, was " + max,
                    "limit must not be negative");
        }
        return new DeadLettersDescriptor(this.store.list(max).stream().map(DeadLetterDescriptor::of).toList());
    }

    /**
     * Reports one dead letter.
     * @param id its id
     * @return the dead letter, or {@code null} (404) if it is unknown
     */
    @ReadOperation
    public @Nullable DeadLetterDescriptor deadLetter(@Selector String id) {
        return this.store.find(id).map(DeadLetterDescriptor::of).orElse(null);
    }

    /**
     * Deletes a dead letter, typically once its work was done by hand.
     * @param id its id
     * @return 204 when it was deleted, 404 if it is unknown
     */
    @DeleteOperation
    public WebEndpointResponse<Void> delete(@Selector String id) {
        return new WebEndpointResponse<>(this.store.delete(id) ? WebEndpointResponse.STATUS_NO_CONTENT
                : WebEndpointResponse.STATUS_NOT_FOUND);
    }

    /**
     * Dead letters, newest first.
     *
     * @param deadLetters the dead letters
     */
    public record DeadLettersDescriptor(List<DeadLetterDescriptor> deadLetters) {
    }

    /**
     * One dead letter.
     *
     * @param id the unique id
     * @param name the name of the protected call
     * @param method the method, such as {@code PaymentService#pay}
     * @param arguments the arguments, as JSON where they serialize
     * @param errorClass the fully qualified class of the final error
     * @param errorMessage the final error's message, or {@code null}
     * @param attempts how many times the method ran
     * @param firstAttemptAt when the first attempt started, ISO-8601
     * @param lastAttemptAt when the last attempt started, ISO-8601
     * @param status how the call ended: {@code ERROR}, {@code TIMEOUT} or {@code REJECTED}
     */
    public record DeadLetterDescriptor(String id, String name, String method, List<String> arguments,
            String errorClass, @JsonInclude(Include.ALWAYS) @Nullable String errorMessage, int attempts,
            String firstAttemptAt, String lastAttemptAt, String status) {

        static DeadLetterDescriptor of(DeadLetter deadLetter) {
            return new DeadLetterDescriptor(deadLetter.id(), deadLetter.name(), deadLetter.method(),
                    deadLetter.arguments(), deadLetter.errorClass(), deadLetter.errorMessage(), deadLetter.attempts(),
                    deadLetter.firstAttemptAt().toString(), deadLetter.lastAttemptAt().toString(),
                    deadLetter.status().name());
        }
    }
}
