package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.List;

import dev.resilience.core.CallContext;
import org.jspecify.annotations.Nullable;

/**
 * The keys of a method's last good values: {@code <scope>:<name>:<fingerprint>}, the
 * scope being the caller's, as an idempotency key's ({@link IdempotencyScopeResolver}),
 * and the fingerprint the keyed digest of the arguments the default idempotency
 * fingerprint covers ({@link IdempotencyFingerprints}), so that a caller is never served
 * the value another caller's call or other arguments produced. Thread-safe.
 */
final class LastGoodKeys {

    /**
     * The scope of a call whose caller could not be worked out: it keeps and is served
     * nothing.
     */
    static final String UNRESOLVED_SCOPE = "\u0000unresolved";

    private final String name;

    private final FingerprintParameters parameters;

    private final IdempotencyFingerprints fingerprints;

    LastGoodKeys(Method method, String name, IdempotencyFingerprints fingerprints) {
        this.name = name;
        this.parameters = FingerprintParameters.of(method);
        this.fingerprints = fingerprints;
    }

    /**
     * Returns the key of a call.
     * @param call the call, whose idempotency scope is its caller's
     * @return the key, or {@code null} when the caller could not be worked out
     */
    @Nullable String key(CallContext call) {
        String scope = call.idempotencyScope();
        if (UNRESOLVED_SCOPE.equals(scope)) {
            return null;
        }
        IdempotencyFingerprints.Digest digest = this.fingerprints.start();
        List<@Nullable Object> arguments = call.arguments();
        for (int i = 0; i < arguments.size(); i++) {
            if (this.parameters.covers(i)) {
                digest.add(this.parameters.contribution(i, arguments.get(i)));
            }
        }
        return scope + ":" + this.name + ":" + digest.finish();
    }

}
