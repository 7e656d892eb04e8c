package dev.resilience.actuate.endpoint;

import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterSanitizer;
import dev.resilience.core.deadletter.DeadLetterStore;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The {@code deadletters} endpoint: the calls whose work was not done, newest first, to
 * inspect and delete once handled by hand.
 *
 * <p>
 * Dead letters are shown through a {@link DeadLetterSanitizer}: to a caller the
 * {@link Show} setting does not show values to, every argument and error message is
 * masked; to one it does, the values of sensitive keys still are. The store keeps them
 * whole. The delete operation is off unless the application opts in with
 * {@code management.endpoint.deadletters.access=unrestricted}.
 */
@Endpoint(id = "deadletters", defaultAccess = Access.READ_ONLY)
public class DeadLettersEndpoint {

    /** How many dead letters are listed when no limit is given. */
    public static final int DEFAULT_LIMIT = 100;

    private final DeadLetterStore store;

    private final DeadLetterSanitizer sanitizer;

    private final Show showValues;

    private final Set<String> roles;

    /**
     * Creates the endpoint.
     * @param store the dead letters to report
     * @param sanitizer how dead letters are shown
     * @param showValues when values are shown
     * @param roles the roles that see values when {@code showValues} is
     * {@link Show#WHEN_AUTHORIZED}; empty for any authenticated user
     */
    public DeadLettersEndpoint(DeadLetterStore store, DeadLetterSanitizer sanitizer, Show showValues,
            Set<String> roles) {
        this.store = store;
        this.sanitizer = sanitizer;
        this.showValues = showValues;
        this.roles = Set.copyOf(roles);
    }

    /**
     * Lists the newest dead letters, newest first.
     * @param securityContext the caller, who may or may not see values
     * @param limit the most to list; {@value #DEFAULT_LIMIT} when not given
     * @return the dead letters, sanitized
     * @throws InvalidEndpointRequestException (400) if the limit is negative
     */
    @ReadOperation
    public DeadLettersDescriptor deadLetters(SecurityContext securityContext, @Nullable Integer limit) {
        int max = (limit != null) ? limit : DEFAULT_LIMIT;
        if (max < 0) {
            throw new InvalidEndpointRequestException("Limit must not be negative, was " + max,
                    "limit must not be negative");
        }
        boolean shown = this.showValues.isShown(securityContext, this.roles);
        return new DeadLettersDescriptor(
                this.store.list(max).stream().map((deadLetter) -> describe(deadLetter, shown)).toList());
    }

    /**
     * Reports one dead letter.
     * @param securityContext the caller, who may or may not see values
     * @param id its id
     * @return the dead letter, sanitized, or {@code null} (404) if it is unknown
     */
    @ReadOperation
    public @Nullable DeadLetterDescriptor deadLetter(SecurityContext securityContext, @Selector String id) {
        boolean shown = this.showValues.isShown(securityContext, this.roles);
        return this.store.find(id).map((deadLetter) -> describe(deadLetter, shown)).orElse(null);
    }

    private DeadLetterDescriptor describe(DeadLetter deadLetter, boolean shown) {
        return DeadLetterDescriptor.of(this.sanitizer.sanitize(deadLetter, shown));
    }

    /**
     * Deletes a dead letter, typically once its work was done by hand.
     * @param id its id
     * @return 204 when it was deleted, 404 if it is unknown
     */
    @DeleteOperation
    public WebEndpointResponse<Void> delete(@Selector String id) {
        return new WebEndpointResponse<>(
                this.store.delete(id) ? WebEndpointResponse.STATUS_NO_CONTENT : WebEndpointResponse.STATUS_NOT_FOUND);
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
     * @param arguments the arguments, as JSON where they serialize, sanitized
     * @param errorClass the fully qualified class of the final error
     * @param errorMessage the final error's message, or {@code null}
     * @param attempts how many times the method ran
     * @param firstAttemptAt when the first attempt started, ISO-8601
     * @param lastAttemptAt when the last attempt started, ISO-8601
     * @param status how the call ended: {@code ERROR}, {@code TIMEOUT} or
     * {@code REJECTED}
     */
    public record DeadLetterDescriptor(String id, String name, String method, List<String> arguments, String errorClass,
            @JsonInclude(Include.ALWAYS) @Nullable String errorMessage, int attempts, String firstAttemptAt,
            String lastAttemptAt, String status) {

        static DeadLetterDescriptor of(DeadLetter deadLetter) {
            return new DeadLetterDescriptor(deadLetter.id(), deadLetter.name(), deadLetter.method(),
                    deadLetter.arguments(), deadLetter.errorClass(), deadLetter.errorMessage(), deadLetter.attempts(),
                    deadLetter.firstAttemptAt().toString(), deadLetter.lastAttemptAt().toString(),
                    deadLetter.status().name());
        }
    }

}
