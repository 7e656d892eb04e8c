package dev.resilience.aop;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

import dev.resilience.core.CallContext;
import org.jspecify.annotations.Nullable;

/**
 * The keys of a method's last good values: {@code <scope>:<name>:<fingerprint>}, the
 * scope being the caller's, as an idempotency key's ({@link IdempotencyScopeResolver}),
 * and the fingerprint the keyed digest ({@link IdempotencyFingerprints}) of the method's
 * class, name and parameter types and of every argument but the request, response and
 * session objects, so that a caller is never served the value another caller's call,
 * another method of the same name or other arguments (another {@code Locale} among them)
 * produced. Thread-safe.
 */
final class LastGoodKeys {

    /**
     * The scope of a call whose caller could not be worked out: it keeps and is served
     * nothing.
     */
    static final String UNRESOLVED_SCOPE = "\u0000unresolved";

    private final String name;

    private final String signature;

    private final FingerprintParameters parameters;

    private final IdempotencyFingerprints fingerprints;

    LastGoodKeys(Method method, Class<?> targetClass, String name, IdempotencyFingerprints fingerprints) {
        this.name = name;
        this.signature = targetClass.getName() + "#" + method.getName()
                + Arrays.stream(method.getParameterTypes()).map(Class::getName).toList();
        this.parameters = FingerprintParameters.ofResults(method);
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
        digest.add(this.signature);
        List<@Nullable Object> arguments = call.arguments();
        for (int i = 0; i < arguments.size(); i++) {
            if (this.parameters.covers(i)) {
                digest.add(this.parameters.contribution(i, arguments.get(i)));
            }
        }
        return scope + ":" + this.name + ":" + digest.finish();
    }

}
