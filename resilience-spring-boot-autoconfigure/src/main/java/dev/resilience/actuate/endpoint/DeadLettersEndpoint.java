package dev.resilience.actuate.endpoint;

import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import dev.resilience.core.deadletter.DeadLetter;
import dev.resilience.core.deadletter.DeadLetterSanitizer;
import dev.resilience.core.deadletter.DeadLetterStore;
import dev.resilience.redrive.DeadLetterRedrive;
import dev.resilience.redrive.RedriveResult;
import dev.resilience.redrive.RedriveResult.Outcome;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The {@code deadletters} endpoint: the calls whose work was not done, newest first, to
 * inspect, re-drive, and delete once handled by hand.
 *
 * <p>
 * Dead letters are shown through a {@link DeadLetterSanitizer}: to a caller the
 * {@link Show} setting does not show values to, every argument and error message is
 * masked; to one it does, the values of sensitive keys still are. The store keeps them
 * whole. The delete and re-drive operations are off unless the application opts in with
 * {@code management.endpoint.deadletters.access=unrestricted}.
 */
@Endpoint(id = "deadletters", defaultAccess = Access.READ_ONLY)
public class DeadLettersEndpoint {

    private static final int STATUS_CONFLICT = 409;

    private static final int STATUS_BAD_GATEWAY = 502;

    /** How many dead letters are listed when no limit is given. */
    public static final int DEFAULT_LIMIT = 100;

    private final DeadLetterStore store;

    private final DeadLetterSanitizer sanitizer;

    private final Show showValues;

    private final Set<String> roles;

    private final @Nullable DeadLetterRedrive redrive;

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
        this(store, sanitizer, showValues, roles, null);
    }

    /**
     * Creates the endpoint, with re-drive.
     * @param store the dead letters to report
     * @param sanitizer how dead letters are shown
     * @param showValues when values are shown
     * @param roles the roles that see values when {@code showValues} is
     * {@link Show#WHEN_AUTHORIZED}; empty for any authenticated user
     * @param redrive how dead letters are re-driven, or {@code null} when they cannot be
     */
    public DeadLettersEndpoint(DeadLetterStore store, DeadLetterSanitizer sanitizer, Show showValues, Set<String> roles,
            @Nullable DeadLetterRedrive redrive) {
        this.store = store;
        this.sanitizer = sanitizer;
        this.showValues = showValues;
        this.roles = Set.copyOf(roles);
        this.redrive = redrive;
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
     * Re-drives a dead letter: runs its call again through the bean's proxy with the
     * stored arguments (see {@link DeadLetterRedrive}).
     * @param securityContext the caller, who may or may not see the error's values
     * @param id its id
     * @return 200 when the call did its work and the letter is deleted; 502 when it
     * failed again and the letter is kept; 409 when its arguments cannot be read back
     * (the letter is kept and the call did not run) or another re-drive holds it; 404 if
     * it is unknown, or when re-drive is not available
     */
    @WriteOperation
    public WebEndpointResponse<RedriveDescriptor> redrive(SecurityContext securityContext, @Selector String id) {
        DeadLetterRedrive redrive = this.redrive;
        if (redrive == null) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        }
        RedriveResult result = redrive.redrive(id);
        String error = result.error();
        if (error != null && result.outcome() == Outcome.FAILURE) {
            error = this.showValues.isShown(securityContext, this.roles) ? this.sanitizer.sanitizeMessage(error)
                    : DeadLetterSanitizer.MASK;
        }
        RedriveDescriptor descriptor = new RedriveDescriptor(result.id(), result.outcome().name(), result.status(),
                result.attempts(), result.errorClass(), error, result.deadLetter().name());
        return new WebEndpointResponse<>(descriptor, switch (result.outcome()) {
            case SUCCESS -> WebEndpointResponse.STATUS_OK;
            case FAILURE -> STATUS_BAD_GATEWAY;
            case UNREADABLE, IN_PROGRESS -> STATUS_CONFLICT;
            case NOT_FOUND -> WebEndpointResponse.STATUS_NOT_FOUND;
        });
    }

    /**
     * How a re-drive ended.
     *
     * @param id the dead letter's id
     * @param outcome {@code SUCCESS}, {@code FAILURE}, {@code UNREADABLE},
     * {@code IN_PROGRESS} or {@code NOT_FOUND}
     * @param status the status of the call run again, or {@code null}
     * @param attempts how many times the method ran, or {@code null}
     * @param errorClass the class of the call's final error, or {@code null}
     * @param error the call's final error message (sanitized), or why the call did not
     * run; {@code null} on success
     * @param deadLetter {@code KEPT}, {@code DELETED} or {@code NONE}
     */
    @JsonInclude(Include.ALWAYS)
    public record RedriveDescriptor(String id, String outcome, @Nullable String status, @Nullable Integer attempts,
            @Nullable String errorClass, @Nullable String error, String deadLetter) {
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
