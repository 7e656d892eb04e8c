package dev.resilience.redis;

import java.util.Collection;
import java.util.Set;

/**
 * Which stored classes a replay may read where a type is declared: the declared class itself,
 * and its subtypes in the declared class's package or named in
 * {@code resilience.idempotency.allowed-types}, whose entries are class names (binary names,
 * {@code com.example.Outer$Inner}) or package names (that package only, not its
 * subpackages). Immutable.
 */
final class AllowedTypes {

    private final Set<String> entries;

    AllowedTypes(Collection<String> entries) {
        this.entries = Set.copyOf(entries);
    }

    /**
     * Tells whether a stored class may be read where a class is declared.
     * @param declared the class declared at the position
     * @param stored the class the stored data names, loaded without being initialized
     * @return whether it is the declared class or an allowed subtype of it
     */
    boolean allows(Class<?> declared, Class<?> stored) {
        if (!declared.isAssignableFrom(stored)) {
            return false;
        }
        return stored == declared || stored.getPackageName().equals(declared.getPackageName())
                || this.entries.contains(stored.getName()) || this.entries.contains(stored.getPackageName());
    }

    /**
     * Says why a stored class is refused, and how to allow it.
     * @param declared the class declared at the position
     * @param storedName the stored class's name
     * @return the reason
     */
    static String refusal(Class<?> declared, String storedName) {
        return "the stored class " + storedName + " is not allowed where " + declared.getName()
                + " is declared: a replay reads only the declared class and its subtypes in package '"
                + declared.getPackageName() + "' or in resilience.idempotency.allowed-types";
    }
}
